// ptc: tools=tools.json
// async function main(): Promise<void> called without await, with a
// setTimeout-based delay inside: the run waits for all of it.
type Lang = "fr" | "de" | "ja" | "es";
interface Translation {
  text: string;
  detected: string;
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function translateAll(text: string, langs: Lang[]): Promise<Map<Lang, string>> {
  const out = new Map<Lang, string>();
  for (const lang of langs) {
    const t: Translation = await tools.translate({ text, target: lang });
    out.set(lang, t.text);
    await delay(20); // be gentle with the API
  }
  return out;
}

async function main(): Promise<void> {
  const translations = await translateAll("Your order has shipped", ["fr", "de", "ja"]);
  for (const [lang, text] of translations) console.log(`[${lang}] ${text}`);
  console.log(translations);
}

main().catch((err: Error) => console.error("main failed:", err.message));
