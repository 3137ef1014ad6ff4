#!/usr/bin/env node
// `npm run build:icons`: every icon the installers need, made from the one source image
// (build/icon.svg) into build/icons/ (git-ignored; `npm run dist` makes it first):
//   - icons/NxN.png, 16 to 1024: Linux (AppImage, deb) takes the folder;
//   - icons/icon.ico: Windows (the app and NSIS; BMP entries, which NSIS needs);
//   - icons/icon.icns: macOS (PNG entries, each size with its Retina pair).
// Pure JavaScript and WebAssembly from npm (resvg renders the SVG, png-to-ico writes the ICO; the
// ICNS container is simple enough to write here): no binary to download, the same on every OS.
import { Buffer } from 'node:buffer';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import { imagesToIco } from 'png-to-ico';
import { readPNG } from 'png-to-ico/lib/png.js';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ICON_SOURCE = join(HERE, 'icon.svg');
export const ICON_DIR = join(HERE, 'icons');

export const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** ICNS entry types with their pixel sizes (Apple's names; the @2x ones are the Retina pairs). */
const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024], // 512@2x
  ['ic11', 32], // 16@2x
  ['ic12', 64], // 32@2x
  ['ic13', 256], // 128@2x
  ['ic14', 512], // 256@2x
];

let wasmReady = null;
function loadWasm() {
  const require = createRequire(import.meta.url);
  wasmReady ??= initWasm(readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm')));
  return wasmReady;
}

/** The ICNS container: 'icns', its length, then each entry as type, length, PNG bytes. */
export function icns(entries) {
  const parts = entries.map(([type, png]) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + parts.reduce((sum, part) => sum + part.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

/** Renders the source at each size and writes the icons; answers the files written. */
export async function makeIcons({ source = ICON_SOURCE, outDir = ICON_DIR } = {}) {
  await loadWasm();
  const svg = readFileSync(source, 'utf8');
  const pngs = new Map();
  for (const size of new Set([...PNG_SIZES, ...ICO_SIZES, ...ICNS_TYPES.map(([, s]) => s)])) {
    const rendered = new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render();
    pngs.set(size, Buffer.from(rendered.asPng()));
    rendered.free();
  }
  mkdirSync(outDir, { recursive: true });
  const written = [];
  const write = (name, bytes) => {
    const file = join(outDir, name);
    writeFileSync(file, bytes);
    written.push(file);
  };
  for (const size of PNG_SIZES) write(`${size}x${size}.png`, pngs.get(size));
  write('icon.png', pngs.get(1024));
  const icoImages = await Promise.all(ICO_SIZES.map((size) => readPNG(pngs.get(size))));
  write('icon.ico', imagesToIco(icoImages));
  write('icon.icns', icns(ICNS_TYPES.map(([type, size]) => [type, pngs.get(size)])));
  return written;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const outDir = process.argv[2] ? resolve(process.argv[2]) : ICON_DIR;
  makeIcons({ outDir }).then(
    (files) => process.stderr.write(`build:icons: ${files.length} files in ${outDir}\n`),
    (error) => {
      process.stderr.write(`build:icons: ${error instanceof Error ? error.stack : error}\n`);
      process.exit(1);
    },
  );
}
