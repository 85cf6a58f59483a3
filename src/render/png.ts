/**
 * Board pictures as PNG, for places that show no SVG (chat and forum embeds): the same SVG, drawn by
 * resvg. The archive draws them on its analysis threads (AnalysisPool.png), so a large picture never
 * holds the event loop: `renderAsync` alone draws on libuv's pool but encodes the PNG (`asPng`) on
 * the thread that awaits it.
 */
import { Resvg, renderAsync } from '@resvg/resvg-js';
import type { ResvgRenderOptions } from '@resvg/resvg-js';

/**
 * The pictures write their text (coordinates, captions) in the generic `sans-serif` family. resvg
 * finds it among the machine's fonts, falling back to the first font it loads when no font is known
 * by that family's default name; a machine with no font at all gets the picture without its text.
 * resvg's per-picture warnings about these fallbacks would flood the log, so only errors are kept.
 */
const OPTIONS: ResvgRenderOptions = {
  font: { loadSystemFonts: true },
  // The SVG carries its own width and height (the requested size): draw it at that size.
  fitTo: { mode: 'original' },
  logLevel: 'error',
};

/** The PNG of a board SVG, drawn on libuv's pool and encoded on the thread that awaits it. */
export async function svgToPng(svg: string): Promise<Buffer> {
  return (await renderAsync(svg, OPTIONS)).asPng();
}

/** The PNG of a board SVG, drawn and encoded on the calling thread: for an analysis thread. */
export function svgToPngOnThisThread(svg: string): Buffer {
  return new Resvg(svg, OPTIONS).render().asPng();
}

/** Whether a capital written in `sans-serif` leaves any dark pixel. */
export async function drawsText(options: ResvgRenderOptions = OPTIONS): Promise<boolean> {
  const probe =
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" font-family="sans-serif">' +
    '<rect width="40" height="40" fill="#fff"/><text x="5" y="32" font-size="32" fill="#000">H</text></svg>';
  const pixels = (await renderAsync(probe, options)).pixels;
  for (let i = 0; i < pixels.length; i += 4) if (pixels[i] < 128) return true;
  return false;
}
