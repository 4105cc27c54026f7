// Counts the tokens of standard input with js-tiktoken's o200k_base and
// cl100k_base encodings and prints them as one JSON object.
import { getEncoding } from "js-tiktoken";

let text = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) text += chunk;
const counts = {};
for (const name of ["o200k_base", "cl100k_base"]) {
  counts[name] = getEncoding(name).encode(text).length;
}
console.log(JSON.stringify(counts));
