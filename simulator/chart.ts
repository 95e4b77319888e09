import type { SimulationReport } from './report';

const COLOURS = ['#8a8a8a', '#c47f00', '#1f6fb2', '#2a9d46'];
const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * An SVG line chart of each strategy's cumulative recovered revenue (USD at the fixed rates) by
 * day of the simulation: one line per strategy, axes in days and dollars, a legend. Plain SVG 1.1,
 * no script, no external resources.
 */
export function chartSvg(report: SimulationReport): string {
  const width = 760;
  const height = 420;
  const left = 80;
  const right = 200;
  const top = 40;
  const bottom = 50;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const days = report.days;
  const max = Math.max(1, ...report.strategies.flatMap((s) => s.cumulative_usd_cents_by_day));
  const x = (day: number) => left + (plotW * day) / Math.max(1, days);
  const y = (cents: number) => top + plotH - (plotH * cents) / max;
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(`Cumulative recovered revenue by day, seed ${report.seed}, ${report.payments} payments`)}</title>`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="24" font-size="14" fill="#111111">${escapeXml(`Cumulative recovered revenue (USD at fixed rates), seed ${report.seed}, ${report.payments} payments`)}</text>`,
    `<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" stroke="#333333"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}" stroke="#333333"/>`,
  ];
  for (let i = 0; i <= 4; i += 1) {
    const cents = (max * i) / 4;
    parts.push(
      `<line x1="${left - 4}" y1="${y(cents).toFixed(1)}" x2="${left + plotW}" y2="${y(cents).toFixed(1)}" stroke="#e0e0e0"/>`,
      `<text x="${left - 8}" y="${(y(cents) + 4).toFixed(1)}" text-anchor="end" fill="#333333">${escapeXml(`$${Math.round(cents / 100).toLocaleString('en-US')}`)}</text>`,
    );
  }
  for (let day = 0; day <= days; day += 7) {
    parts.push(`<text x="${x(day).toFixed(1)}" y="${top + plotH + 18}" text-anchor="middle" fill="#333333">${day}</text>`);
  }
  parts.push(`<text x="${left + plotW / 2}" y="${height - 10}" text-anchor="middle" fill="#333333">day of the simulation</text>`);
  report.strategies.forEach((strategy, i) => {
    const colour = COLOURS[i % COLOURS.length] as string;
    const points = strategy.cumulative_usd_cents_by_day.map((cents, day) => `${x(day + 1).toFixed(1)},${y(cents).toFixed(1)}`);
    parts.push(
      `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${x(0).toFixed(1)},${y(0).toFixed(1)} ${points.join(' ')}"/>`,
      `<line x1="${left + plotW + 16}" y1="${top + 10 + i * 22}" x2="${left + plotW + 40}" y2="${top + 10 + i * 22}" stroke="${colour}" stroke-width="3"/>`,
      `<text x="${left + plotW + 46}" y="${top + 14 + i * 22}" fill="#111111">${escapeXml(strategy.name)}</text>`,
    );
  });
  parts.push('</svg>', '');
  return parts.join('\n');
}
