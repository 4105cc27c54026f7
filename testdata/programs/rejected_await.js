await Promise.reject(new RangeError("out of range"));
