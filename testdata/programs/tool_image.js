// ptc: tools=../tools/weather.json
// A successful subcall's images follow the outer content, attributed to
// their call; a failed one contributes nothing.
const caption = await tools.radar_image({ city: "Paris" });
await tools.radar_image({ city: "Oslo" }).catch((e) => console.log(e.code));
return caption;
