// Build the studio's editor: src/editor.js and the CodeMirror packages of package-lock.json,
// bundled by esbuild into ONE minified IIFE, ../static/editor.bundle.js, which the wheel
// carries (no build step for a user, no network at run time), and beside it the manifest
// ../static/editor.bundle.json: the sha256 of every input and of the bundle, which
// tests/studio/test_studio_bundle.py compares with the files on disk.
//
//   cd interpreter/studio/js && npm ci && node build.mjs [--out DIR]
//
// The same lock and sources give the same bytes: no timestamps, no absolute paths, inputs
// and licences in a fixed order.

import {createHash} from "node:crypto";
import {mkdirSync, readFileSync, readdirSync, writeFileSync} from "node:fs";
import {dirname, join, relative, sep} from "node:path";
import {fileURLToPath} from "node:url";
import * as esbuild from "esbuild";

const HERE = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const OUT = args[0] === "--out" && args[1] ? args[1] : join(HERE, "..", "static");

const sha256 = bytes => createHash("sha256").update(bytes).digest("hex");
const posix = p => p.split(sep).join("/");

function filesUnder(dir) {
  return readdirSync(dir, {withFileTypes: true})
    .flatMap(e => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

// the packages that end up in the bundle, with their versions and licences (MIT notices travel with the code)
function bundledPackages(metafile) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(posix(input));
    if (m) dirs.add(m[1]);
  }
  return [...dirs].sort().map(d => {
    const pkg = JSON.parse(readFileSync(join(HERE, d, "package.json"), "utf8"));
    const licence = readdirSync(join(HERE, d)).find(f => /^licen[cs]e/i.test(f));
    return {name: pkg.name, version: pkg.version, license: pkg.license,
            text: licence ? readFileSync(join(HERE, d, licence), "utf8").trim() : ""};
  });
}

const result = await esbuild.build({
  entryPoints: [join(HERE, "src", "editor.js")],
  bundle: true,
  format: "iife",
  minify: true,
  target: ["es2020"],
  platform: "browser",
  charset: "utf8",
  legalComments: "none",
  metafile: true,
  write: false,
  absWorkingDir: HERE,
  logLevel: "warning",
});
const [out] = result.outputFiles;
const packages = bundledPackages(result.metafile);

// one comment on top: what this file is, where it comes from, and the licences of what it holds
const licences = new Map();
for (const p of packages) {
  const key = p.text || p.license;
  if (!licences.has(key)) licences.set(key, []);
  licences.get(key).push(`${p.name}@${p.version}`);
}
const banner = [
  "/* The cardrules studio's editor (window.CardsEditor): CodeMirror 6 bundled by",
  " * interpreter/studio/js/build.mjs from package-lock.json. Do not edit: rebuild with",
  " *   cd interpreter/studio/js && npm ci && node build.mjs",
  " *",
  ...[...licences].flatMap(([text, names]) => [
    ` * ${names.join(", ")}:`,
    ...text.split("\n").map(l => (" *   " + l.replace(/\*\//g, "* /")).trimEnd()),
    " *",
  ]),
  " */",
  "",
].join("\n");
const bundle = Buffer.concat([Buffer.from(banner, "utf8"), Buffer.from(out.contents)]);

mkdirSync(OUT, {recursive: true});
writeFileSync(join(OUT, "editor.bundle.js"), bundle);

const inputs = ["package.json", "package-lock.json", "build.mjs", ...filesUnder(join(HERE, "src")).map(f => posix(relative(HERE, f)))];
const manifest = {
  about: "sha256 of the editor bundle's sources (paths relative to interpreter/studio/js/) and of the bundle it built; "
    + "written by build.mjs, checked by tests/studio/test_studio_bundle.py",
  sources: Object.fromEntries(inputs.map(f => [f, sha256(readFileSync(join(HERE, f)))])),
  bundle: {"editor.bundle.js": sha256(bundle), bytes: bundle.length},
  packages: Object.fromEntries(packages.map(p => [p.name, p.version])),
  esbuild: esbuild.version,
};
writeFileSync(join(OUT, "editor.bundle.json"), JSON.stringify(manifest, null, 2) + "\n");
console.log(`${posix(relative(process.cwd(), join(OUT, "editor.bundle.js")))}: ${bundle.length} bytes, `
  + `${packages.length} packages, sha256 ${manifest.bundle["editor.bundle.js"].slice(0, 12)}`);
