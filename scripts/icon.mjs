// Renders media/icon.svg to media/icon.png (128×128, transparent corners), the marketplace icon, with the
// Chromium that the UI tests use (scripts/host.mjs). Run after editing the SVG: `npm run icon`.
import fs from 'node:fs';
import { chromium } from 'playwright-core';
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
  console.log('media/icon.png written');
} finally {
  await browser.close();
}
