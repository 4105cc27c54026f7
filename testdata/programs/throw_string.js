throw "a bare string";
