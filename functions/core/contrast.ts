/**
 * WCAG 2.2 contrast (success criteria 1.4.3 and 1.4.11): relative luminance of sRGB colours and
 * their contrast ratio, and the darkest-needed shade of a brand colour that reaches a ratio
 * against white, for buttons and links drawn in the merchant's colour.
 */
const HEX = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i;

/** The default brand colour when a merchant has none (or an unreadable one): indigo, 6.3:1 on white. */
export const DEFAULT_BRAND_COLOR = '#4338ca';

type Rgb = readonly [number, number, number];

export function parseHexColor(value: string): Rgb | undefined {
  const match = HEX.exec(value.trim());
  if (match === null) return undefined;
  const digits = match[1] as string;
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  return [0, 2, 4].map((at) => Number.parseInt(full.slice(at, at + 2), 16)) as unknown as Rgb;
}

const toHex = (rgb: Rgb): string => `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;

export function relativeLuminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const WHITE: Rgb = [255, 255, 255];

/**
 * The brand colour as a hex string if it reaches `minimum` (default 4.5:1, AA body text) against
 * white, else the lightest darker shade of it that does (each channel scaled down in 2% steps,
 * so the hue is kept). An unreadable value gives DEFAULT_BRAND_COLOR.
 */
export function accessibleBrandColor(color: string | null | undefined, minimum = 4.5): string {
  const rgb = color === null || color === undefined ? undefined : parseHexColor(color);
  if (rgb === undefined) return DEFAULT_BRAND_COLOR;
  for (let factor = 1; factor >= 0; factor -= 0.02) {
    const shade = rgb.map((channel) => channel * factor) as unknown as Rgb;
    if (contrastRatio(shade, WHITE) >= minimum) return toHex(shade);
  }
  return '#000000';
}
