console.log("never runs");
let = = 3;
