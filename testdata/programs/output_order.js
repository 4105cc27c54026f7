console.log("one");
console.info("two", 2);
console.warn({ three: [3] });
console.error("four", null, undefined, true);
console.log([1, "x", { y: 2 }]);
