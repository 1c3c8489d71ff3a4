// Renders media/icon.svg to media/icon.png (128×128, transparent corners), the marketplace icon, with the
// Chromium that the UI tests use (scripts/host.mjs). Run after editing the SVG: `npm run icon`.
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import pngjs from 'pngjs';
import { chromiumPath } from './host.mjs';

const SIZE = 128;
const svg = fs.readFileSync('media/icon.svg', 'utf8');
const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg style="display:block" `)}</body></html>`,
  );
  await page.screenshot({
    path: 'media/icon.png',
    omitBackground: true,
    clip: { x: 0, y: 0, width: SIZE, height: SIZE },
  });
  // Chromium writes a quick PNG; the same pixels at zlib's best are a third smaller, and the .vsix stores
  // PNGs as they are (the committed icon went through zopflipng, smaller still).
  const pixels = pngjs.PNG.sync.read(fs.readFileSync('media/icon.png'));
  const [smallest] = [-1, 0, 1, 2, 3, 4]
    .map(filterType => pngjs.PNG.sync.write(pixels, { deflateLevel: 9, deflateStrategy: 0, filterType, colorType: 6 }))
    .sort((a, b) => a.length - b.length);
  fs.writeFileSync('media/icon.png', smallest);
  console.log(`media/icon.png written (${smallest.length} bytes)`);
} finally {
  await browser.close();
}
