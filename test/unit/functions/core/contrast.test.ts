import { accessibleBrandColor, contrastRatio, DEFAULT_BRAND_COLOR, parseHexColor } from '#core/contrast';

const WHITE = [255, 255, 255] as const;

describe('brand colour contrast', () => {
  it('computes the WCAG ratio of black and white as 21:1', () => {
    // Assess
    expect(contrastRatio([0, 0, 0], WHITE)).toBeCloseTo(21, 5);
  });

  it('keeps a brand colour that reaches 4.5:1 on white', () => {
    // Assess
    expect(accessibleBrandColor('#1d4ed8')).toBe('#1d4ed8');
    expect(contrastRatio(parseHexColor(DEFAULT_BRAND_COLOR) as never, WHITE)).toBeGreaterThanOrEqual(4.5);
  });

  it('darkens a light brand colour until white text on it reaches 4.5:1, keeping its hue', () => {
    // Act
    const shade = accessibleBrandColor('#ffcc00');
    const rgb = parseHexColor(shade) as [number, number, number];
    // Assess
    expect(shade).not.toBe('#ffcc00');
    expect(contrastRatio(rgb, WHITE)).toBeGreaterThanOrEqual(4.5);
    expect(rgb[2]).toBe(0);
    expect(rgb[0]).toBeGreaterThan(rgb[1]);
  });

  it('falls back to the default colour for a missing or unreadable value', () => {
    // Assess
    expect(accessibleBrandColor(null)).toBe(DEFAULT_BRAND_COLOR);
    expect(accessibleBrandColor('red; background:url(x)')).toBe(DEFAULT_BRAND_COLOR);
    expect(accessibleBrandColor('#abc')).toMatch(/^#[0-9a-f]{6}$/);
  });
});
