console.log("step 1 done");
console.log("step 2 about to fail");
throw new TypeError("cannot read the thing");
