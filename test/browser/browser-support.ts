import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@jest/globals';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { viewerDirectory } from '../../src/common/viewer.js';
import type { Requirement } from '../support/optional.js';

/*
 * What the viewer's page tests in Chromium share: the system's Chromium, a page that
 * notes every console error or warning and uncaught exception, the phone-sized screen, and the
 * README's pictures (TABULA_README_PICTURES=1 writes them into docs/images/).
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const chromiumThere: Requirement = {
  what: 'Chromium',
  missing: existsSync(CHROMIUM) ? null : `no Chromium at ${CHROMIUM} (install it, e.g. apt-get install chromium, or set CHROMIUM_PATH)`,
  requiredBy: 'TABULA_REQUIRE_BROWSER',
};

export const README_PICTURES = process.env.TABULA_README_PICTURES === '1';

export function needViewer(): void {
  if (!existsSync(join(viewerDirectory(), 'index.html'))) throw new Error(`the viewer is not built (${viewerDirectory()}): run npm run build`);
}

export interface WatchedPage {
  readonly browser: Browser;
  readonly page: Page;
  /** Every console error or warning and uncaught exception, but the refusals a test asks for. */
  readonly complaints: string[];
}

/** Chromium with a desktop-sized page; while `refusalAsked()` the console's report of a 400 answer is no complaint. */
export async function watchedPage(refusalAsked: () => boolean): Promise<WatchedPage> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  const page = await (await browser.newContext({ viewport: { width: 1200, height: 900 } })).newPage();
  const complaints: string[] = [];
  page.on('console', (message) => {
    if (refusalAsked() && /status of 400/.test(message.text())) return;
    if (message.type() === 'error' || message.type() === 'warning') complaints.push(`console ${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => complaints.push(`page error: ${error.message}`));
  return { browser, page, complaints };
}

/** Each of the viewer's `hashes`, once `ready`, fits a phone-sized screen without horizontal scrolling; the desktop size after. */
export async function expectFitsPhone(page: Page, baseUrl: string, hashes: readonly string[], ready: () => Promise<unknown>): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const hash of hashes) {
    await page.goto(`${baseUrl}/${hash}`);
    await ready();
    // What the page asks for next (a search's answer, the explorer's years) is laid out too before it is measured.
    await page.waitForLoadState('networkidle');
    expect([hash, await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)]).toEqual([hash, true]);
  }
  await page.setViewportSize({ width: 1200, height: 900 });
}

/** The page as it stands into docs/images/`name`, once the pictures of `pictures` on the screen have loaded (the others load lazily). */
export async function takeReadmePicture(page: Page, pictures: string, name: string): Promise<void> {
  await page.waitForFunction(
    (selector) => [...document.querySelectorAll<HTMLImageElement>(selector)].filter((img) => img.getBoundingClientRect().top < innerHeight).every((img) => img.complete && img.naturalWidth > 0),
    pictures,
  );
  const folder = new URL('../../docs/images/', import.meta.url);
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: new URL(name, folder).pathname });
}
