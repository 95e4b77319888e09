import { gzipSync } from 'node:zlib';
import { WIDGET_SCRIPT } from '#api/widget/widget-script';

describe('the widget script', () => {
  it('stays under 15 KB gzipped', () => {
    // Act
    const size = gzipSync(Buffer.from(WIDGET_SCRIPT, 'utf8'), { level: 9 }).length;
    // Assess
    expect(size).toBeLessThan(15 * 1024);
  });

  it('is valid JavaScript of its own, loading no framework or other file', () => {
    // Act and assess
    expect(() => new Function(WIDGET_SCRIPT)).not.toThrow();
    expect(WIDGET_SCRIPT).not.toMatch(/\bimport\b|\brequire\(|<script/);
  });
});
