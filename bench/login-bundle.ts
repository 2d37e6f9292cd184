import { gzipSync } from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { panelWithUser } from './lib';

export interface BundleReport {
  gzipBytes: number;
  rawBytes: number;
  files: { name: string; gzipBytes: number }[];
  forbidden: string[];
}

/**
 * The JavaScript a browser fetches to render /login, as Chromium really loads it from the
 * built panel, gzipped (level 9 would flatter it; zlib's default is what servers send).
 * Aim: under 200 KB, with Monaco and recharts never in it.
 */
export async function loginBundle(webDir = path.resolve('dist/web')): Promise<BundleReport> {
  if (!fs.existsSync(path.join(webDir, 'index.html')))
    throw new Error(`no built UI in ${webDir}: run npm run build`);
  const panel = await panelWithUser({ webDir });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
  try {
    const page = await browser.newPage();
    const scripts = new Map<string, Buffer>();
    page.on('response', async (response) => {
      const url = response.url();
      if (url.endsWith('.js') || response.headers()['content-type']?.includes('javascript')) {
        scripts.set(url, await response.body().catch(() => Buffer.alloc(0)));
      }
    });
    await page.goto(`${panel.baseUrl}/login`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: /sign in/i }).waitFor({ timeout: 15_000 });
    const files = [...scripts].map(([url, body]) => ({
      name: new URL(url).pathname,
      rawBytes: body.length,
      gzipBytes: gzipSync(body).length,
    }));
    const source = [...scripts.values()].map((b) => b.toString('utf8')).join('\n');
    const forbidden = ['monaco-editor', 'recharts'].filter(
      (lib) => source.includes(lib) || files.some((f) => f.name.includes(lib)),
    );
    return {
      gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0),
      rawBytes: files.reduce((sum, f) => sum + f.rawBytes, 0),
      files: files.map(({ name, gzipBytes }) => ({ name, gzipBytes })),
      forbidden,
    };
  } finally {
    await browser.close();
    await panel.close();
  }
}
