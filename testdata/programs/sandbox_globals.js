const kinds = {
  require: typeof require, process: typeof process, std: typeof std, os: typeof os,
  fetch: typeof fetch, XMLHttpRequest: typeof XMLHttpRequest, WebAssembly: typeof WebAssembly,
  setTimeout: typeof setTimeout,
};
let imported;
try { await import("os"); imported = "imported!"; } catch (e) { imported = `rejected: ${e.name}`; }
let importedStd;
try { await import("std"); importedStd = "imported!"; } catch (e) { importedStd = `rejected: ${e.name}`; }
return { kinds, imported, importedStd };
