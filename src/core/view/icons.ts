// Icons are server data. One check for every surface: a raster data: URI whose payload is base64 only,
// under 64 KB. Anything else (SVG, http: that would be fetched, a script URI, a huge string) is dropped
// and the surface shows its own codicon.
const SAFE_ICON = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/;
export const MAX_ICON_CHARS = 64 * 1024;

export function isSafeIcon(src: unknown): src is string {
  return typeof src === 'string' && src.length < MAX_ICON_CHARS && SAFE_ICON.test(src);
}

/** The first icon a surface may show, or undefined. */
export function safeIconSrc(icons: readonly { src: string }[] | undefined): string | undefined {
  return icons?.find(i => isSafeIcon(i.src))?.src;
}
