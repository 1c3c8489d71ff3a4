#!/usr/bin/env node
// Copies the README's pictures from the latest UI test run (.artifacts/screenshots/, written by
// test/e2e/tour.e2e.js, prompt-tools.e2e.js and server-content.e2e.js) into media/readme/, and makes media/readme/tour.gif from the
// tour's numbered frames (tour-frame-NN-*.png), so the README shows what the tests saw, never a
// hand-made picture. gifenc and pngjs are pure JavaScript: no ImageMagick or ffmpeg needed.
//   node scripts/readme-images.mjs [--from DIR]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import gifenc from 'gifenc';
import pngjs from 'pngjs';

const { GIFEncoder, quantize, applyPalette } = gifenc;
const { PNG } = pngjs;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fromAt = process.argv.indexOf('--from');
const from = fromAt > 0 ? path.resolve(process.argv[fromAt + 1]) : path.join(root, '.artifacts', 'screenshots');
const to = path.join(root, 'media', 'readme');

/** README picture ← the screenshot of the UI test step that shows it (test file: the name's first word). */
const PICTURES = {
  'chat-transcript.png': 'tour-chat-transcript.png',
  'argument-input.png': 'tour-argument-input.png',
  'picker.png': 'tour-picker.png',
  'sidebar.png': 'tour-sidebar.png',
  'question.png': 'tour-question.png',
  'agent-confirmation.png': 'prompt-tools-confirmation-chat.png',
  'skill-loaded.png': 'server-content-loaded-chat.png',
};

/** The GIF: the tour's frames in order, scaled to this width; how long each frame stays (ms). */
const GIF = { name: 'tour.gif', frames: /^tour-frame-\d+-.*\.png$/, width: 760, maxBytes: 1.5 * 1024 * 1024 };
const DELAY = { default: 1400, empty: 900, transcript: 2600, agent: 4000 };

/** Area-averaging downscale of RGBA `src` (w×h) to width `dw` (height in proportion). */
function downscale(src, w, h, dw) {
  if (dw >= w) return { data: src, width: w, height: h };
  const dh = Math.round((h * dw) / w);
  const sx = w / dw;
  const sy = h / dh;
  // Horizontal pass into floats, then vertical; each destination pixel averages the source area it covers.
  const mid = new Float32Array(dw * h * 4);
  for (let x = 0; x < dw; x++) {
    const x0 = x * sx;
    const x1 = x0 + sx;
    for (let xs = Math.floor(x0); xs < Math.ceil(x1); xs++) {
      const weight = (Math.min(x1, xs + 1) - Math.max(x0, xs)) / sx;
      for (let y = 0; y < h; y++) {
        const s = (y * w + xs) * 4;
        const d = (y * dw + x) * 4;
        for (let c = 0; c < 4; c++) mid[d + c] += src[s + c] * weight;
      }
    }
  }
  const out = new Float32Array(dw * dh * 4);
  for (let y = 0; y < dh; y++) {
    const y0 = y * sy;
    const y1 = y0 + sy;
    for (let ys = Math.floor(y0); ys < Math.ceil(y1); ys++) {
      const weight = (Math.min(y1, ys + 1) - Math.max(y0, ys)) / sy;
      for (let x = 0; x < dw; x++) {
        const s = (ys * dw + x) * 4;
        const d = (y * dw + x) * 4;
        for (let c = 0; c < 4; c++) out[d + c] += mid[s + c] * weight;
      }
    }
  }
  return { data: Uint8Array.from(out, v => Math.min(255, Math.round(v))), width: dw, height: dh };
}

function makeGif(files) {
  const gif = GIFEncoder();
  let size;
  for (const file of files) {
    const png = PNG.sync.read(fs.readFileSync(file));
    const frame = downscale(png.data, png.width, png.height, GIF.width);
    // Every frame must have the first one's size (the chat part the tour crops to does not move).
    size ??= [frame.width, frame.height];
    if (frame.width !== size[0] || frame.height !== size[1])
      throw new Error(`${path.basename(file)} is ${frame.width}×${frame.height}, the first frame ${size.join('×')}`);
    const palette = quantize(frame.data, 256);
    const what = path.basename(file).replace(/^tour-frame-\d+-|\.png$/g, '');
    gif.writeFrame(applyPalette(frame.data, palette), frame.width, frame.height, {
      palette,
      delay: DELAY[what] ?? DELAY.default,
    });
  }
  gif.finish();
  return { bytes: gif.bytes(), size };
}

fs.mkdirSync(to, { recursive: true });
const missing = [];
for (const [name, shot] of Object.entries(PICTURES)) {
  const source = path.join(from, shot);
  if (!fs.existsSync(source)) {
    missing.push(shot);
    continue;
  }
  fs.copyFileSync(source, path.join(to, name));
  console.log(`media/readme/${name} ← ${path.relative(root, source)}`);
}
const frames = fs.existsSync(from)
  ? fs
      .readdirSync(from)
      .filter(f => GIF.frames.test(f))
      .sort()
      .map(f => path.join(from, f))
  : [];
if (frames.length < 2) missing.push('tour-frame-NN-*.png');
else {
  const { bytes, size } = makeGif(frames);
  fs.writeFileSync(path.join(to, GIF.name), bytes);
  console.log(
    `media/readme/${GIF.name} ← ${frames.length} frames tour-frame-*.png, ${size.join('×')}, ${(bytes.length / 1024).toFixed(0)} KB`,
  );
  if (bytes.length > GIF.maxBytes) {
    console.error(`readme-images: ${GIF.name} is ${(bytes.length / 1048576).toFixed(2)} MB, more than 1.5 MB`);
    process.exitCode = 1;
  }
}
if (missing.length) {
  console.error(`readme-images: not in ${from}: ${missing.join(', ')} (run the UI tests that take them first)`);
  process.exit(1);
}
