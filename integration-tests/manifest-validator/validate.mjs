// Validates every object in the given multi-document YAML files against the Kubernetes JSON schemas of
// kubernetes-models. Prints one line per object; exits 1 if any object is invalid or of an unknown kind.
import { readFileSync } from "node:fs";
import yaml from "js-yaml";

let failures = 0;
let checked = 0;
for (const file of process.argv.slice(2)) {
  const docs = yaml.loadAll(readFileSync(file, "utf8")).filter((d) => d && typeof d === "object");
  for (const doc of docs) {
    const where = `${file}: ${doc.kind ?? "?"}/${doc.metadata?.name ?? "?"}`;
    if (!doc.apiVersion || !doc.kind) {
      console.log(`INVALID ${where}: apiVersion and kind are required`);
      failures++;
      continue;
    }
    let Model;
    try {
      const module = await import(`kubernetes-models/${doc.apiVersion}`);
      Model = module[doc.kind];
    } catch (e) {
      Model = undefined;
    }
    if (!Model) {
      console.log(`INVALID ${where}: unknown apiVersion/kind ${doc.apiVersion} ${doc.kind}`);
      failures++;
      continue;
    }
    try {
      new Model(doc).validate();
      checked++;
      console.log(`ok ${where}`);
    } catch (e) {
      failures++;
      console.log(`INVALID ${where}: ${e.message.replace(/\s+/g, " ")}`);
    }
  }
}
console.log(`${checked} valid, ${failures} invalid`);
process.exit(failures > 0 || checked === 0 ? 1 : 0);
