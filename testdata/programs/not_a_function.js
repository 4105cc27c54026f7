const o = {};
o.fn();
