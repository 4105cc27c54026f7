// ptc: tools=../tools/misc.json
// Astral-plane characters, U+2028/U+2029, quotes and backslashes survive
// the trip into the tool's arguments and back out of its value.
const { text } = await tools.lookup({ key: "😀\u2028é" });
console.log(text === "𝄞 clef\u2028line\u2029para \"quoted\" \\ back", text.length);
return text;
