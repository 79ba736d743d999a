/**
 * Draws every picture the app ships (the demo catalog's product shots, the home banner slides, the
 * home category cards and the FAQ illustration) as SVG and renders them to WebP under
 * apps/web/public/images/. The product works offline, so nothing is fetched; each file must stay
 * ≤ 40 KB (docs/decisions/005-page-weight.md) and the script fails when one does not.
 *
 *   node --import tsx scripts/generate-images.ts
 */
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { Category } from '@bulkcart/contracts/categories';
import { buildDemoCatalog } from '../apps/server/src/db/seed/demo-catalog.ts';

const MAX_BYTES = 40 * 1024;
const IMAGES_DIR = fileURLToPath(new URL('../apps/web/public/images/', import.meta.url));
const PRODUCT_W = 480;
const PRODUCT_H = 360;

// ---------------------------------------------------------------------------------------------
// Colours

function parseHex(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function mix(a: string, b: string, t: number): string {
  const [ar, ag, ab] = parseHex(a);
  const [br, bg, bb] = parseHex(b);
  const channel = (x: number, y: number) =>
    Math.round(x + (y - x) * t)
      .toString(16)
      .padStart(2, '0');
  return `#${channel(ar, br)}${channel(ag, bg)}${channel(ab, bb)}`;
}

const lighten = (colour: string, t: number) => mix(colour, '#ffffff', t);
const darken = (colour: string, t: number) => mix(colour, '#000000', t);

/** A product's two colours: its body (`url(#m)`) and its detail (`url(#a)`). */
interface Palette {
  main: string;
  accent: string;
}

/** Lit from the top left, like a studio product shot. */
function shadedGradient(id: string, colour: string): string {
  return (
    `<linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="${lighten(colour, 0.3)}"/>` +
    `<stop offset="0.55" stop-color="${colour}"/>` +
    `<stop offset="1" stop-color="${darken(colour, 0.2)}"/>` +
    `</linearGradient>`
  );
}

/** Gradients every drawing may use: m (body), a (detail), s (steel), k (dark plastic), w (white plastic). */
function materialDefs(palette: Palette, suffix = ''): string {
  return [
    shadedGradient(`m${suffix}`, palette.main),
    shadedGradient(`a${suffix}`, palette.accent),
    shadedGradient(`s${suffix}`, '#cbd5e1'),
    shadedGradient(`k${suffix}`, '#3a4352'),
    shadedGradient(`w${suffix}`, '#f8fafc'),
  ].join('');
}

/** Lets several drawings share one SVG without their gradient ids clashing. */
function withSuffix(fragment: string, suffix: string): string {
  return fragment.replace(/url\(#([maskw])\)/g, `url(#$1${suffix})`);
}

// ---------------------------------------------------------------------------------------------
// Small shapes used by several drawings

function hexagon(cx: number, cy: number, r: number): string {
  const points = Array.from({ length: 6 }, (_, i) => {
    const angle = (Math.PI / 3) * i + Math.PI / 6;
    return `${(cx + r * Math.cos(angle)).toFixed(1)},${(cy + r * Math.sin(angle)).toFixed(1)}`;
  });
  return points.join(' ');
}

function coffeeBean(x: number, y: number, angle: number): string {
  return `<g transform="translate(${x} ${y}) rotate(${angle})"><ellipse rx="11" ry="8" fill="#6b3f1d"/><path d="M-9 0 Q0 -4 9 0" stroke="#3b2210" stroke-width="2" fill="none"/></g>`;
}

function teeShape(fill: string): string {
  return `<path d="M190 70 Q240 96 290 70 L372 104 L348 172 L316 160 L316 300 L164 300 L164 160 L132 172 L108 104 Z" fill="${fill}"/>`;
}

function longSleeveTop(fill: string): string {
  return `<path d="M182 92 L128 112 Q104 122 100 150 L84 286 L126 292 L150 176 L160 300 L320 300 L330 176 L354 292 L396 286 L380 150 Q376 122 352 112 L298 92 Z" fill="${fill}"/>`;
}

function bulb(x: number, y: number, scale: number, glowOpacity: number): string {
  return `<g transform="translate(${x} ${y}) scale(${scale})">
    <circle cx="0" cy="-40" r="96" fill="#fef9c3" opacity="${glowOpacity}"/>
    <path d="M0 -110 A70 70 0 0 1 44 16 Q34 26 32 50 H-32 Q-34 26 -44 16 A70 70 0 0 1 0 -110 Z" fill="url(#m)"/>
    <path d="M-18 -70 Q-40 -60 -40 -30" stroke="#fff" stroke-width="8" stroke-linecap="round" fill="none" opacity=".7"/>
    <path d="M-18 0 q9 -30 18 0 q9 -30 18 0" stroke="url(#a)" stroke-width="4" fill="none"/>
    <rect x="-30" y="50" width="60" height="40" rx="6" fill="url(#s)"/>
    <path d="M-30 63 h60 M-30 76 h60" stroke="#64748b" stroke-width="3"/>
    <path d="M-18 90 h36 l-8 14 h-20 z" fill="url(#k)"/>
  </g>`;
}

function pen(angle: number, colour: string): string {
  return `<g transform="rotate(${angle} 240 300)">
    <rect x="229" y="70" width="22" height="210" rx="9" fill="#e2e8f0" opacity=".95"/>
    <rect x="233" y="130" width="14" height="150" rx="6" fill="${colour}" opacity=".35"/>
    <rect x="229" y="60" width="22" height="72" rx="9" fill="${colour}"/>
    <rect x="248" y="66" width="6" height="52" rx="3" fill="${darken(colour, 0.25)}"/>
    <rect x="231" y="230" width="18" height="40" rx="4" fill="${darken(colour, 0.1)}"/>
  </g>`;
}

function tube(x: number, colour: string, cap: string): string {
  return `<g transform="translate(${x} 0)">
    <path d="M-52 64 H52 L40 250 H-40 Z" fill="${colour}"/>
    <path d="M-52 64 H52 L50 90 H-50 Z" fill="#000" opacity=".08"/>
    <rect x="-56" y="56" width="112" height="14" rx="3" fill="${darken(colour, 0.18)}"/>
    <rect x="-42" y="250" width="84" height="46" rx="8" fill="${cap}"/>
    <path d="M-30 100 V230" stroke="#fff" stroke-width="8" stroke-linecap="round" opacity=".35"/>
  </g>`;
}

function marker(x: number, y: number, angle: number, colour: string): string {
  return `<g transform="translate(${x} ${y}) rotate(${angle})">
    <rect x="-110" y="-17" width="170" height="34" rx="12" fill="url(#w)"/>
    <rect x="-60" y="-17" width="40" height="34" fill="${colour}" opacity=".85"/>
    <rect x="50" y="-19" width="70" height="38" rx="12" fill="${colour}"/>
    <rect x="-124" y="-9" width="16" height="18" rx="4" fill="${darken(colour, 0.2)}"/>
  </g>`;
}

function binderClip(x: number, y: number, angle: number, colour: string, scale = 1): string {
  return `<g transform="translate(${x} ${y}) rotate(${angle}) scale(${scale})">
    <path d="M-26 -20 Q-44 -70 -10 -86 M26 -20 Q44 -70 10 -86" stroke="#cbd5e1" stroke-width="7" fill="none" stroke-linecap="round"/>
    <path d="M-44 -20 H44 L36 40 Q0 52 -36 40 Z" fill="${colour}"/>
    <path d="M-44 -20 H44 L42 -6 H-42 Z" fill="#fff" opacity=".25"/>
  </g>`;
}

function stickyPad(x: number, y: number, angle: number, colour: string, curl: boolean): string {
  const layers = [12, 8, 4]
    .map((d) => `<rect x="${-70 + d / 3}" y="${-70 + d}" width="140" height="140" rx="4" fill="${darken(colour, 0.08 + d / 100)}"/>`)
    .join('');
  const face = curl
    ? `<path d="M-70 -70 H70 V36 L36 70 H-70 Z" fill="${colour}"/><path d="M70 36 Q44 38 36 70 Q58 60 70 36 Z" fill="${darken(colour, 0.15)}"/>`
    : `<rect x="-70" y="-70" width="140" height="140" rx="4" fill="${colour}"/>`;
  return `<g transform="translate(${x} ${y}) rotate(${angle})">${layers}${face}</g>`;
}

function towel(y: number, colour: string, stripe: string, width: number): string {
  const x = 240 - width / 2;
  return `<g>
    <rect x="${x}" y="${y}" width="${width}" height="44" rx="14" fill="${colour}"/>
    <rect x="${x + width - 60}" y="${y}" width="10" height="44" fill="${stripe}"/>
    <rect x="${x + width - 42}" y="${y}" width="6" height="44" fill="${stripe}"/>
    <path d="M${x + 6} ${y + 40} Q${x + width / 2} ${y + 48} ${x + width - 6} ${y + 40}" stroke="#000" stroke-opacity=".1" stroke-width="4" fill="none"/>
  </g>`;
}

function sock(colour: string, stripe: string): string {
  return `<g>
    <path d="M196 60 H262 V196 Q262 214 278 224 L334 258 Q356 274 340 296 Q324 312 296 298 L214 246 Q196 234 196 212 Z" fill="${colour}"/>
    <rect x="196" y="60" width="66" height="26" fill="${darken(colour, 0.08)}"/>
    <rect x="196" y="94" width="66" height="9" fill="${stripe}"/>
    <rect x="196" y="110" width="66" height="9" fill="${stripe}"/>
    <path d="M300 268 Q322 262 336 282 Q340 300 316 302 Q300 296 300 268 Z" fill="${darken(colour, 0.12)}"/>
  </g>`;
}

function keyboardKeys(): string {
  const rows = 4;
  const parts: string[] = [];
  for (let r = 0; r < rows; r++) {
    const yTop = 150 + r * 24;
    const yBottom = yTop + 19;
    const edge = (y: number) => ({ left: 100 - ((y - 140) / 110) * 30 + 8, right: 380 + ((y - 140) / 110) * 30 - 8 });
    const top = edge(yTop);
    const bottom = edge(yBottom);
    const keys = r === rows - 1 ? [1, 1, 1, 6, 1, 1, 1] : Array.from({ length: 12 }, () => 1);
    const units = keys.reduce((s, k) => s + k, 0);
    let used = 0;
    for (const [i, k] of keys.entries()) {
      const f0 = used / units;
      const f1 = (used + k) / units;
      used += k;
      const gap = 2.5;
      const x = (e: { left: number; right: number }, f: number) => e.left + (e.right - e.left) * f;
      const isAccent = (r === 0 && i === 0) || (r === 2 && i === 11) || (r === rows - 1 && k === 6);
      parts.push(
        `<path d="M${(x(top, f0) + gap).toFixed(1)} ${yTop} L${(x(top, f1) - gap).toFixed(1)} ${yTop} L${(x(bottom, f1) - gap).toFixed(1)} ${yBottom} L${(x(bottom, f0) + gap).toFixed(1)} ${yBottom} Z" fill="${isAccent ? 'url(#a)' : 'url(#w)'}"/>`,
      );
    }
  }
  return parts.join('');
}

// ---------------------------------------------------------------------------------------------
// Product drawings, in a 480x360 frame, standing on a floor at y≈300

interface ProductArt {
  colours: [Palette, Palette];
  draw: (p: Palette) => string;
}

/** One drawing: its catalog colours and its other colours, each [body, detail], and how to draw it in either. */
function art([main, accent]: [string, string], [otherMain, otherAccent]: [string, string], draw: ProductArt['draw']): ProductArt {
  return {
    colours: [
      { main, accent },
      { main: otherMain, accent: otherAccent },
    ],
    draw,
  };
}

const ART: Record<string, ProductArt> = {
  // Electronics & Gadgets
  'wireless-earbuds-pro': art(
    ['#f1f4f9', '#38bdf8'],
    ['#2b3040', '#a3e635'],
    (p) => `
      <rect x="104" y="170" width="176" height="124" rx="58" fill="url(#m)"/>
      <path d="M108 220 Q192 232 276 220" stroke="${darken(p.main, 0.3)}" stroke-width="3" fill="none"/>
      <circle cx="192" cy="258" r="5" fill="${p.accent}"/>
      <g transform="rotate(-14 320 180)"><rect x="308" y="168" width="26" height="100" rx="13" fill="url(#m)"/><circle cx="321" cy="156" r="34" fill="url(#m)"/><ellipse cx="306" cy="148" rx="15" ry="13" fill="url(#k)"/><rect x="312" y="252" width="18" height="14" rx="5" fill="${p.accent}"/></g>
      <g transform="rotate(12 392 190)"><rect x="380" y="178" width="26" height="100" rx="13" fill="url(#m)"/><circle cx="393" cy="166" r="34" fill="url(#m)"/><ellipse cx="408" cy="158" rx="15" ry="13" fill="url(#k)"/><rect x="384" y="262" width="18" height="14" rx="5" fill="${p.accent}"/></g>`,
  ),
  'usb-c-fast-charger-65w': art(
    ['#f1f4f9', '#f97316'],
    ['#2b3040', '#22d3ee'],
    (p) => `
      <path d="M226 254 C226 330 340 330 350 250 S370 170 384 160" stroke="${darken(p.main, 0.12)}" stroke-width="11" fill="none" stroke-linecap="round"/>
      <rect x="182" y="92" width="14" height="46" rx="3" fill="url(#s)"/><rect x="236" y="92" width="14" height="46" rx="3" fill="url(#s)"/>
      <rect x="150" y="130" width="132" height="154" rx="28" fill="url(#m)"/>
      <rect x="158" y="136" width="116" height="28" rx="14" fill="#fff" opacity=".3"/>
      <rect x="150" y="204" width="132" height="7" fill="${p.accent}"/>
      <rect x="198" y="242" width="36" height="13" rx="6" fill="url(#k)"/>
      <g transform="rotate(20 384 140)"><rect x="370" y="104" width="28" height="50" rx="9" fill="url(#m)"/><rect x="376" y="86" width="16" height="22" rx="4" fill="url(#s)"/></g>`,
  ),
  'smart-led-bulb-4-pack': art(['#fde68a', '#f97316'], ['#bfdbfe', '#2563eb'], () => `${bulb(330, 200, 0.72, 0.25)}${bulb(200, 186, 1, 0.4)}`),
  'bluetooth-speaker-mini': art(
    ['#334155', '#22d3ee'],
    ['#dc2626', '#fde047'],
    (p) => `
      <rect x="104" y="150" width="272" height="136" rx="66" fill="url(#m)"/>
      <rect x="128" y="166" width="224" height="104" rx="52" fill="#000" opacity=".12"/>
      <circle cx="240" cy="218" r="44" fill="none" stroke="#fff" stroke-opacity=".22" stroke-width="6"/>
      <circle cx="240" cy="218" r="16" fill="#fff" opacity=".18"/>
      <rect x="334" y="150" width="18" height="136" fill="${p.accent}"/>
      <circle cx="200" cy="158" r="5" fill="#fff" opacity=".6"/><circle cx="240" cy="156" r="5" fill="#fff" opacity=".6"/><circle cx="280" cy="158" r="5" fill="#fff" opacity=".6"/>`,
  ),
  'power-bank-20000mah': art(
    ['#3a4352', '#22c55e'],
    ['#e2e8f0', '#8b5cf6'],
    (p) => `
      <g transform="rotate(-8 240 190)">
        <rect x="176" y="80" width="130" height="222" rx="24" fill="url(#m)"/>
        <rect x="184" y="88" width="114" height="206" rx="18" fill="none" stroke="#fff" stroke-opacity=".18" stroke-width="2"/>
        <rect x="222" y="86" width="38" height="8" rx="4" fill="#111827"/>
        <path d="M250 146 l-24 42 h17 l-7 36 l26 -46 h-17 z" fill="${p.accent}"/>
        <circle cx="217" cy="270" r="5" fill="${p.accent}"/><circle cx="233" cy="270" r="5" fill="${p.accent}"/><circle cx="249" cy="270" r="5" fill="${p.accent}"/><circle cx="265" cy="270" r="5" fill="${p.accent}" opacity=".35"/>
      </g>`,
  ),
  'phone-stand-aluminium': art(
    ['#cbd5e1', '#60a5fa'],
    ['#52525b', '#f472b6'],
    () => `
      <path d="M140 292 L344 292 L332 270 L152 270 Z" fill="url(#m)"/>
      <path d="M276 272 L300 272 L236 96 L214 104 Z" fill="url(#m)"/>
      <g transform="rotate(-18 220 200)"><rect x="178" y="72" width="104" height="196" rx="16" fill="#1f2937"/><rect x="186" y="84" width="88" height="172" rx="10" fill="url(#a)"/><rect x="216" y="78" width="28" height="4" rx="2" fill="#111827"/></g>
      <rect x="150" y="254" width="92" height="18" rx="5" fill="url(#m)"/>`,
  ),
  'hdmi-cable-2m': art(
    ['#1f2937', '#facc15'],
    ['#1d4ed8', '#e2e8f0'],
    (p) => `
      <ellipse cx="220" cy="200" rx="98" ry="66" fill="none" stroke="${p.main}" stroke-width="13"/>
      <ellipse cx="228" cy="206" rx="84" ry="56" fill="none" stroke="${lighten(p.main, 0.12)}" stroke-width="13"/>
      <ellipse cx="214" cy="212" rx="92" ry="62" fill="none" stroke="${darken(p.main, 0.1)}" stroke-width="13"/>
      <path d="M300 230 C340 260 360 260 380 250" stroke="${p.main}" stroke-width="13" fill="none" stroke-linecap="round"/>
      <path d="M130 170 C110 140 120 110 140 100" stroke="${p.main}" stroke-width="13" fill="none" stroke-linecap="round"/>
      <g transform="rotate(-60 140 92)"><rect x="118" y="70" width="44" height="52" rx="8" fill="url(#m)"/><rect x="122" y="40" width="36" height="32" rx="3" fill="url(#s)"/><rect x="128" y="46" width="24" height="8" fill="${p.accent}"/></g>
      <g transform="rotate(70 392 244)"><rect x="370" y="222" width="44" height="52" rx="8" fill="url(#m)"/><rect x="374" y="192" width="36" height="32" rx="3" fill="url(#s)"/><rect x="380" y="198" width="24" height="8" fill="${p.accent}"/></g>`,
  ),
  'wireless-mouse': art(
    ['#475569', '#38bdf8'],
    ['#f8fafc', '#f43f5e'],
    (p) => `
      <g transform="rotate(-16 240 190)">
        <path d="M240 70 C314 70 322 142 320 204 C318 272 290 304 240 304 C190 304 162 272 160 204 C158 142 166 70 240 70 Z" fill="url(#m)"/>
        <path d="M240 72 V166 M162 164 Q240 180 318 164" stroke="${darken(p.main, 0.3)}" stroke-width="3" fill="none"/>
        <rect x="231" y="100" width="18" height="40" rx="9" fill="${p.accent}"/>
        <path d="M190 110 Q200 86 226 80" stroke="#fff" stroke-opacity=".35" stroke-width="7" fill="none" stroke-linecap="round"/>
      </g>`,
  ),
  'mechanical-keyboard': art(
    ['#334155', '#f97316'],
    ['#e2e8f0', '#8b5cf6'],
    (p) => `
      <path d="M62 256 L418 256 L418 274 Q418 280 412 280 L68 280 Q62 280 62 274 Z" fill="${darken(p.main, 0.25)}"/>
      <path d="M62 256 L418 256 L384 138 L96 138 Z" fill="url(#m)"/>
      ${keyboardKeys()}`,
  ),
  'smart-watch-lite': art(
    ['#1f2937', '#34d399'],
    ['#f9a8d4', '#f97316'],
    (p) => `
      <path d="M204 36 H276 L268 122 H212 Z" fill="url(#m)"/>
      <path d="M212 244 H268 L276 324 H204 Z" fill="url(#m)"/>
      <rect x="176" y="104" width="128" height="150" rx="36" fill="url(#s)"/>
      <rect x="189" y="117" width="102" height="124" rx="26" fill="#111827"/>
      <circle cx="240" cy="179" r="34" fill="none" stroke="${p.accent}" stroke-width="9" stroke-dasharray="160 60" stroke-linecap="round"/>
      <circle cx="240" cy="179" r="19" fill="none" stroke="#60a5fa" stroke-width="7" stroke-dasharray="80 40" stroke-linecap="round"/>
      <rect x="302" y="164" width="11" height="28" rx="4" fill="url(#s)"/>`,
  ),

  // Home & Kitchen Appliances
  'electric-kettle-1-7l': art(
    ['#ef4444', '#1f2937'],
    ['#f1f5f9', '#0f766e'],
    () => `
      <path d="M320 132 C396 132 400 252 334 258" fill="none" stroke="#2b3340" stroke-width="20" stroke-linecap="round"/>
      <path d="M164 142 L116 116 L108 126 L158 182 Z" fill="url(#m)"/>
      <path d="M172 108 L308 108 Q318 108 320 120 L340 268 Q342 282 328 282 L152 282 Q138 282 140 268 L160 120 Q162 108 172 108 Z" fill="url(#m)"/>
      <path d="M176 110 Q240 76 304 110 Z" fill="url(#m)"/>
      <rect x="226" y="80" width="28" height="14" rx="6" fill="url(#a)"/>
      <rect x="180" y="150" width="16" height="104" rx="8" fill="#bae6fd" opacity=".85"/>
      <path d="M292 126 L308 258" stroke="#fff" stroke-opacity=".3" stroke-width="9" stroke-linecap="round"/>
      <rect x="128" y="278" width="224" height="22" rx="10" fill="url(#a)"/>`,
  ),
  'non-stick-frying-pan-28cm': art(
    ['#2b3340', '#a16207'],
    ['#b91c1c', '#1f2937'],
    (p) => `
      <path d="M328 184 L448 146 Q462 142 466 156 Q468 170 456 174 L338 214 Z" fill="url(#a)"/>
      <circle cx="446" cy="160" r="5" fill="#fff" opacity=".5"/>
      <ellipse cx="196" cy="212" rx="146" ry="88" fill="${darken(p.main, 0.2)}"/>
      <ellipse cx="196" cy="200" rx="146" ry="88" fill="url(#m)"/>
      <ellipse cx="196" cy="194" rx="126" ry="72" fill="#1f2937"/>
      <ellipse cx="170" cy="172" rx="64" ry="28" fill="#fff" opacity=".07"/>`,
  ),
  'stainless-steel-knife-set': art(
    ['#b45309', '#1f2937'],
    ['#3f3f46', '#b91c1c'],
    () => `
      <g transform="rotate(-16 226 130)">
        <rect x="172" y="52" width="26" height="92" rx="9" fill="url(#a)"/><rect x="204" y="44" width="26" height="100" rx="9" fill="url(#a)"/>
        <rect x="236" y="56" width="26" height="88" rx="9" fill="url(#a)"/><rect x="268" y="66" width="26" height="78" rx="9" fill="url(#a)"/>
        <circle cx="185" cy="70" r="3" fill="#e2e8f0"/><circle cx="217" cy="64" r="3" fill="#e2e8f0"/><circle cx="249" cy="74" r="3" fill="#e2e8f0"/><circle cx="281" cy="84" r="3" fill="#e2e8f0"/>
      </g>
      <path d="M146 152 L304 106 L344 290 L172 290 Z" fill="url(#m)"/>
      <path d="M146 152 L304 106 L312 124 L152 170 Z" fill="#000" opacity=".18"/>
      <path d="M84 300 L300 300 L300 318 Q196 324 84 300 Z" fill="url(#s)"/>
      <rect x="298" y="297" width="104" height="24" rx="8" fill="url(#a)"/>`,
  ),
  'blender-600w': art(
    ['#2b3340', '#fb7185'],
    ['#f1f5f9', '#84cc16'],
    (p) => `
      <path d="M306 96 C352 96 352 190 296 196" stroke="${darken(p.main, 0.1)}" stroke-width="15" fill="none" stroke-linecap="round"/>
      <path d="M172 150 L308 150 L290 232 L190 232 Z" fill="${p.accent}" opacity=".8"/>
      <path d="M168 70 L312 70 L290 232 L190 232 Z" fill="#e0f2fe" opacity=".55"/>
      <path d="M190 88 L204 220" stroke="#fff" stroke-width="8" stroke-linecap="round" opacity=".6"/>
      <path d="M214 222 l26 -9 l26 9" stroke="#64748b" stroke-width="5" fill="none"/>
      <rect x="160" y="56" width="160" height="22" rx="8" fill="url(#m)"/>
      <path d="M178 230 L302 230 L318 300 L162 300 Z" fill="url(#m)"/>
      <circle cx="240" cy="268" r="13" fill="url(#s)"/>`,
  ),
  'glass-food-containers': art(
    ['#22c55e', '#f97316'],
    ['#3b82f6', '#eab308'],
    (p) => `
      <rect x="128" y="238" width="224" height="62" rx="12" fill="#e0f2fe" opacity=".8"/>
      <path d="M140 270 Q200 256 260 270 T340 268 V290 H140 Z" fill="${p.accent}" opacity=".7"/>
      <rect x="122" y="226" width="236" height="16" rx="6" fill="url(#m)"/>
      <rect x="146" y="176" width="188" height="48" rx="10" fill="#e0f2fe" opacity=".8"/>
      <circle cx="186" cy="206" r="12" fill="#84cc16" opacity=".8"/><circle cx="214" cy="210" r="10" fill="#84cc16" opacity=".8"/>
      <rect x="140" y="164" width="200" height="16" rx="6" fill="url(#m)"/>
      <rect x="162" y="120" width="156" height="42" rx="9" fill="#e0f2fe" opacity=".8"/>
      <rect x="156" y="108" width="168" height="16" rx="6" fill="url(#m)"/>
      <path d="M136 246 V290 M154 184 V218 M172 128 V156" stroke="#fff" stroke-width="5" stroke-linecap="round" opacity=".7"/>`,
  ),
  'toaster-2-slice': art(
    ['#93c5fd', '#d97706'],
    ['#fca5a5', '#b45309'],
    (p) => `
      <path d="M172 152 V96 Q172 78 192 78 Q204 68 216 78 Q236 78 236 96 V152 Z" fill="url(#a)"/>
      <path d="M180 150 V100 Q180 88 194 88 Q204 80 214 88 Q228 88 228 100 V150 Z" fill="${lighten(p.accent, 0.55)}"/>
      <path d="M244 152 V96 Q244 78 264 78 Q276 68 288 78 Q308 78 308 96 V152 Z" fill="url(#a)"/>
      <path d="M252 150 V100 Q252 88 266 88 Q276 80 286 88 Q300 88 300 100 V150 Z" fill="${lighten(p.accent, 0.55)}"/>
      <rect x="128" y="136" width="224" height="154" rx="50" fill="url(#m)"/>
      <rect x="164" y="136" width="80" height="10" rx="5" fill="#1f2937"/><rect x="236" y="136" width="80" height="10" rx="5" fill="#1f2937" opacity="0"/>
      <circle cx="240" cy="250" r="12" fill="url(#k)"/>
      <rect x="350" y="196" width="26" height="13" rx="4" fill="url(#k)"/>
      <rect x="150" y="286" width="30" height="10" rx="4" fill="#1f2937"/><rect x="300" y="286" width="30" height="10" rx="4" fill="#1f2937"/>
      <path d="M150 180 Q152 158 172 150" stroke="#fff" stroke-width="8" stroke-linecap="round" fill="none" opacity=".4"/>`,
  ),
  'cotton-kitchen-towels': art(
    ['#f8fafc', '#ef4444'],
    ['#fef3c7', '#0d9488'],
    (p) =>
      `${towel(248, p.main, p.accent, 250)}${towel(204, lighten(p.accent, 0.7), p.accent, 236)}${towel(160, p.main, p.accent, 222)}${towel(116, lighten(p.accent, 0.45), '#ffffff', 208)}`,
  ),
  'digital-kitchen-scale': art(
    ['#f1f5f9', '#22d3ee'],
    ['#3a4352', '#a3e635'],
    (p) => `
      <path d="M110 232 L370 232 L370 258 Q370 266 362 266 L118 266 Q110 266 110 258 Z" fill="${darken(p.main, 0.22)}"/>
      <path d="M110 232 L370 232 L340 160 L140 160 Z" fill="url(#m)"/>
      <rect x="198" y="238" width="84" height="22" rx="4" fill="#111827"/>
      <rect x="208" y="243" width="44" height="12" rx="2" fill="${p.accent}"/>
      <circle cx="216" cy="160" r="30" fill="#facc15"/><circle cx="262" cy="166" r="28" fill="#fbbf24"/><circle cx="240" cy="130" r="28" fill="#fde047"/>
      <path d="M236 104 q8 -10 18 -6" stroke="#4d7c0f" stroke-width="5" fill="none" stroke-linecap="round"/>`,
  ),
  'coffee-grinder': art(
    ['#2b3340', '#d6d3d1'],
    ['#b91c1c', '#fef3c7'],
    () => `
      <path d="M184 142 Q240 56 296 142 Z" fill="#e0f2fe" opacity=".75"/>
      ${coffeeBean(226, 122, 20)}${coffeeBean(252, 118, -30)}${coffeeBean(240, 100, 60)}
      <rect x="178" y="136" width="124" height="14" rx="6" fill="url(#a)"/>
      <rect x="182" y="146" width="116" height="154" rx="18" fill="url(#m)"/>
      <rect x="222" y="196" width="36" height="16" rx="6" fill="url(#a)"/>
      <path d="M198 160 V284" stroke="#fff" stroke-width="8" stroke-linecap="round" opacity=".2"/>
      ${coffeeBean(330, 292, 10)}${coffeeBean(356, 284, -40)}${coffeeBean(140, 294, 30)}`,
  ),
  'rice-cooker-1-8l': art(
    ['#f8fafc', '#f97316'],
    ['#fecaca', '#dc2626'],
    (p) => `
      <path d="M132 176 L348 176 Q350 286 300 296 L180 296 Q130 286 132 176 Z" fill="url(#m)"/>
      <path d="M126 178 Q240 56 354 178 Z" fill="url(#m)"/>
      <rect x="124" y="170" width="232" height="16" rx="8" fill="url(#s)"/>
      <rect x="204" y="98" width="72" height="18" rx="9" fill="url(#k)"/>
      <rect x="204" y="210" width="72" height="46" rx="10" fill="${p.accent}"/>
      <circle cx="222" cy="233" r="6" fill="#fff"/><rect x="236" y="228" width="30" height="10" rx="5" fill="#fff" opacity=".7"/>
      <path d="M160 150 Q180 120 214 112" stroke="#fff" stroke-width="8" stroke-linecap="round" fill="none" opacity=".6"/>`,
  ),

  // Fashion & Apparel
  'cotton-crew-t-shirt': art(
    ['#3b82f6', '#ffffff'],
    ['#f8fafc', '#1f2937'],
    (p) => `
      ${teeShape('url(#m)')}
      <path d="M190 70 Q240 112 290 70" stroke="${darken(p.main, 0.2)}" stroke-width="9" fill="none"/>
      <path d="M136 160 L114 152 M344 160 L366 152" stroke="${darken(p.main, 0.2)}" stroke-width="4"/>
      <path d="M200 150 Q210 230 196 296" stroke="#000" stroke-opacity=".07" stroke-width="16" fill="none"/>`,
  ),
  'denim-jeans-slim-fit': art(
    ['#1e40af', '#f59e0b'],
    ['#3f3f46', '#e2e8f0'],
    (p) => `
      <path d="M174 62 H306 L322 302 H258 L240 132 L222 302 H158 Z" fill="url(#m)"/>
      <rect x="174" y="62" width="132" height="22" fill="${darken(p.main, 0.18)}"/>
      <circle cx="240" cy="73" r="6" fill="${p.accent}"/>
      <path d="M182 90 Q210 100 214 128 M298 90 Q270 100 266 128" stroke="${p.accent}" stroke-width="3" stroke-dasharray="6 5" fill="none"/>
      <path d="M240 86 V128" stroke="${p.accent}" stroke-width="3" stroke-dasharray="6 5"/>
      <rect x="192" y="58" width="8" height="30" fill="${darken(p.main, 0.3)}"/><rect x="280" y="58" width="8" height="30" fill="${darken(p.main, 0.3)}"/>
      <path d="M196 150 L182 290 M284 150 L298 290" stroke="#fff" stroke-opacity=".12" stroke-width="10"/>`,
  ),
  'hooded-sweatshirt': art(
    ['#6b7280', '#fbbf24'],
    ['#7c3aed', '#f8fafc'],
    (p) => `
      ${longSleeveTop('url(#m)')}
      <path d="M186 100 Q178 36 240 36 Q302 36 294 100 Q240 126 186 100 Z" fill="${darken(p.main, 0.12)}"/>
      <path d="M206 98 Q240 56 274 98 Q240 114 206 98 Z" fill="${darken(p.main, 0.35)}"/>
      <path d="M226 108 V160 M254 108 V160" stroke="${p.accent}" stroke-width="5" stroke-linecap="round"/>
      <path d="M194 218 H286 L302 272 H178 Z" fill="${darken(p.main, 0.08)}"/>
      <rect x="160" y="284" width="160" height="16" fill="${darken(p.main, 0.15)}"/>
      <path d="M84 276 L126 282 M354 282 L396 276" stroke="${darken(p.main, 0.2)}" stroke-width="12"/>`,
  ),
  'leather-belt': art(
    ['#7c2d12', '#d4d4d8'],
    ['#1f2937', '#eab308'],
    (p) => `
      <circle cx="226" cy="200" r="90" fill="none" stroke="url(#m)" stroke-width="34"/>
      <circle cx="226" cy="200" r="52" fill="none" stroke="${lighten(p.main, 0.08)}" stroke-width="34"/>
      <circle cx="226" cy="200" r="102" fill="none" stroke="${lighten(p.main, 0.35)}" stroke-width="2" stroke-dasharray="6 5"/>
      <path d="M226 110 H410" stroke="${p.main}" stroke-width="34"/>
      <circle cx="360" cy="110" r="4" fill="#000" opacity=".5"/><circle cx="384" cy="110" r="4" fill="#000" opacity=".5"/>
      <rect x="300" y="86" width="48" height="48" rx="9" fill="none" stroke="url(#a)" stroke-width="9"/>
      <path d="M300 110 H336" stroke="${p.accent}" stroke-width="5" stroke-linecap="round"/>`,
  ),
  'sports-socks-6-pack': art(
    ['#f8fafc', '#ef4444'],
    ['#1f2937', '#22d3ee'],
    (p) => `<g transform="translate(-64 12)">${sock(darken(p.main, 0.06), p.accent)}</g>${sock(p.main, p.accent)}`,
  ),
  'baseball-cap': art(
    ['#dc2626', '#ffffff'],
    ['#1e3a8a', '#fbbf24'],
    (p) => `
      <path d="M124 218 Q124 98 238 94 Q352 98 352 218 Z" fill="url(#m)"/>
      <path d="M238 96 Q222 160 226 218 M238 96 Q290 150 300 218" stroke="${darken(p.main, 0.25)}" stroke-width="3" fill="none"/>
      <ellipse cx="238" cy="96" rx="13" ry="6" fill="${darken(p.main, 0.15)}"/>
      <circle cx="262" cy="170" r="18" fill="${p.accent}"/>
      <path d="M120 214 Q240 238 356 214 Q426 226 440 262 Q300 292 196 264 Q146 250 120 214 Z" fill="${darken(p.main, 0.18)}"/>`,
  ),
  'canvas-tote-bag': art(
    ['#e7dcc8', '#0f766e'],
    ['#1f2937', '#f472b6'],
    (p) => `
      <path d="M184 136 Q184 44 240 44 Q296 44 296 136" stroke="${darken(p.main, 0.18)}" stroke-width="15" fill="none"/>
      <path d="M138 128 H342 L358 300 H122 Z" fill="url(#m)"/>
      <path d="M138 128 H342 L344 146 H136 Z" fill="#000" opacity=".08"/>
      <circle cx="240" cy="218" r="40" fill="${p.accent}"/>
      <path d="M240 250 Q214 216 240 186 Q266 216 240 250 Z" fill="${lighten(p.accent, 0.55)}"/>`,
  ),
  'rain-jacket': art(
    ['#facc15', '#1f2937'],
    ['#0ea5e9', '#f8fafc'],
    (p) => `
      ${longSleeveTop('url(#m)')}
      <path d="M182 96 Q176 30 240 30 Q304 30 298 96 L240 112 Z" fill="${darken(p.main, 0.1)}"/>
      <path d="M202 94 Q240 50 278 94 L240 106 Z" fill="${darken(p.main, 0.3)}"/>
      <path d="M240 108 V300" stroke="${p.accent}" stroke-width="5" stroke-dasharray="5 3"/>
      <path d="M182 208 L222 200 M258 200 L298 208" stroke="${darken(p.main, 0.25)}" stroke-width="8" stroke-linecap="round"/>
      <path d="M84 276 L126 282 M354 282 L396 276" stroke="${darken(p.main, 0.2)}" stroke-width="12"/>`,
  ),
  'knit-beanie': art(
    ['#0d9488', '#f8fafc'],
    ['#b91c1c', '#fde68a'],
    (p) => `
      <path d="M140 232 Q140 94 240 94 Q340 94 340 232 Z" fill="url(#m)"/>
      ${[168, 196, 224, 252, 280, 308].map((x) => `<path d="M${x} 120 Q${x + 6} 170 ${x} 226" stroke="${darken(p.main, 0.15)}" stroke-width="4" fill="none"/>`).join('')}
      <rect x="128" y="218" width="224" height="64" rx="16" fill="${darken(p.main, 0.12)}"/>
      ${Array.from({ length: 13 }, (_, i) => `<rect x="${140 + i * 16}" y="224" width="6" height="52" rx="3" fill="${darken(p.main, 0.25)}"/>`).join('')}
      <circle cx="240" cy="84" r="36" fill="url(#a)"/>`,
  ),
  'polo-shirt': art(
    ['#16a34a', '#ffffff'],
    ['#1e3a8a', '#fbbf24'],
    (p) => `
      ${teeShape('url(#m)')}
      <path d="M196 66 L240 96 L214 124 Z M284 66 L240 96 L266 124 Z" fill="${lighten(p.main, 0.2)}"/>
      <rect x="232" y="96" width="16" height="62" fill="${darken(p.main, 0.15)}"/>
      <circle cx="240" cy="116" r="4" fill="${p.accent}"/><circle cx="240" cy="138" r="4" fill="${p.accent}"/>
      <rect x="286" y="150" width="18" height="12" rx="3" fill="${p.accent}" opacity=".8"/>`,
  ),

  // Industrial Machinery & Tools
  'cordless-drill-18v': art(
    ['#f59e0b', '#1f2937'],
    ['#16a34a', '#1f2937'],
    () => `
      <path d="M370 134 H428 L440 140 L428 146 H370 Z" fill="url(#s)"/>
      <rect x="326" y="122" width="48" height="36" rx="7" fill="url(#a)"/>
      <path d="M190 166 H256 L266 246 H204 Z" fill="url(#a)"/>
      <path d="M122 108 H300 Q332 108 332 140 Q332 170 300 170 H122 Q108 170 108 156 V122 Q108 108 122 108 Z" fill="url(#m)"/>
      <path d="M140 124 V154 M154 124 V154 M168 124 V154" stroke="#000" stroke-opacity=".25" stroke-width="4" stroke-linecap="round"/>
      <rect x="244" y="172" width="12" height="26" rx="4" fill="#111827"/>
      <rect x="170" y="240" width="120" height="54" rx="10" fill="url(#a)"/>
      <rect x="170" y="240" width="120" height="14" rx="6" fill="url(#m)"/>`,
  ),
  'safety-gloves-nitrile': art(['#2563eb', '#e2e8f0'], ['#f97316', '#1f2937'], (p) => {
    const glove = (fill: string) => `
        <rect x="176" y="62" width="28" height="110" rx="14" fill="${fill}"/><rect x="206" y="50" width="28" height="120" rx="14" fill="${fill}"/>
        <rect x="236" y="56" width="28" height="116" rx="14" fill="${fill}"/><rect x="266" y="74" width="26" height="100" rx="13" fill="${fill}"/>
        <rect x="134" y="150" width="28" height="80" rx="14" fill="${fill}" transform="rotate(-42 148 190)"/>
        <rect x="172" y="140" width="122" height="112" rx="30" fill="${fill}"/>
        <rect x="180" y="236" width="106" height="62" rx="10" fill="${p.accent}"/>`;
    return `<g transform="translate(56 10) rotate(10 240 190)" opacity=".85">${glove(darken(p.main, 0.2))}</g>${glove('url(#m)')}`;
  }),
  'socket-wrench-set': art(
    ['#dc2626', '#cbd5e1'],
    ['#1d4ed8', '#cbd5e1'],
    () => `
      <rect x="86" y="116" width="308" height="178" rx="16" fill="url(#m)"/>
      <rect x="102" y="132" width="276" height="146" rx="10" fill="#1f2937"/>
      ${[34, 31, 28, 25, 22, 19]
        .map((r, i) => {
          const cx = 138 + i * 46 - (34 - r);
          return `<circle cx="${cx}" cy="180" r="${r}" fill="url(#s)"/><polygon points="${hexagon(cx, 180, r * 0.55)}" fill="#1f2937"/>`;
        })
        .join('')}
      <rect x="124" y="238" width="200" height="18" rx="9" fill="url(#s)"/>
      <circle cx="334" cy="247" r="22" fill="url(#s)"/><circle cx="334" cy="247" r="8" fill="#64748b"/>`,
  ),
  'angle-grinder-900w': art(
    ['#0ea5e9', '#1f2937'],
    ['#16a34a', '#1f2937'],
    () => `
      <ellipse cx="150" cy="238" rx="84" ry="24" fill="url(#s)"/>
      <ellipse cx="150" cy="238" rx="14" ry="5" fill="#475569"/>
      <path d="M66 236 A84 24 0 0 1 234 236" stroke="#111827" stroke-width="10" fill="none"/>
      <rect x="118" y="142" width="74" height="84" rx="14" fill="url(#a)"/>
      <rect x="164" y="90" width="17" height="62" rx="8" fill="url(#a)"/>
      <rect x="176" y="148" width="212" height="66" rx="33" fill="url(#m)"/>
      ${[300, 318, 336, 354].map((x) => `<path d="M${x} 156 V206" stroke="#000" stroke-opacity=".25" stroke-width="5" stroke-linecap="round"/>`).join('')}
      <rect x="226" y="140" width="46" height="12" rx="5" fill="#111827"/>`,
  ),
  'measuring-tape-8m': art(
    ['#facc15', '#1f2937'],
    ['#ef4444', '#1f2937'],
    () => `
      <path d="M290 250 H432 V274 H290 Z" fill="#fde047"/>
      ${Array.from({ length: 14 }, (_, i) => `<path d="M${300 + i * 10} 250 V${i % 5 === 0 ? 264 : 258}" stroke="#1f2937" stroke-width="2"/>`).join('')}
      <rect x="428" y="244" width="9" height="36" rx="2" fill="url(#s)"/>
      <rect x="138" y="118" width="166" height="166" rx="42" fill="url(#m)"/>
      <circle cx="218" cy="198" r="52" fill="url(#a)"/>
      <circle cx="218" cy="198" r="32" fill="url(#m)"/>
      <rect x="270" y="128" width="24" height="44" rx="8" fill="url(#a)"/>`,
  ),
  'safety-goggles': art(
    ['#bae6fd', '#f97316'],
    ['#fde68a', '#16a34a'],
    (p) => `
      <path d="M78 214 Q240 150 402 214" stroke="${p.accent}" stroke-width="26" fill="none"/>
      <path d="M108 156 Q240 126 372 156 Q390 232 332 254 Q290 266 262 238 Q240 224 218 238 Q190 266 148 254 Q90 232 108 156 Z" fill="#2b3340"/>
      <path d="M124 166 Q240 142 356 166 Q368 226 328 240 Q294 250 268 226 Q240 212 212 226 Q186 250 152 240 Q112 226 124 166 Z" fill="url(#m)" opacity=".9"/>
      <path d="M150 178 L196 170 M140 200 L170 194" stroke="#fff" stroke-width="7" stroke-linecap="round" opacity=".7"/>`,
  ),
  'workbench-clamp': art(
    ['#2563eb', '#dc2626'],
    ['#f59e0b', '#1f2937'],
    () => `
      <rect x="146" y="52" width="24" height="252" rx="4" fill="url(#s)"/>
      <path d="M146 52 H304 Q316 52 316 64 V82 H170 V96 H146 Z" fill="url(#m)"/>
      <rect x="270" y="82" width="40" height="12" rx="3" fill="#1f2937"/>
      <path d="M146 214 H304 Q316 214 316 226 V244 H146 Z" fill="url(#m)"/>
      <rect x="283" y="140" width="14" height="80" fill="url(#s)"/>
      ${[150, 162, 174, 186, 198].map((y) => `<path d="M283 ${y} L297 ${y + 6}" stroke="#64748b" stroke-width="2"/>`).join('')}
      <rect x="270" y="130" width="40" height="12" rx="3" fill="#1f2937"/>
      <rect x="272" y="244" width="36" height="62" rx="12" fill="url(#a)"/>`,
  ),
  'air-compressor-24l': art(
    ['#dc2626', '#1f2937'],
    ['#0ea5e9', '#1f2937'],
    () => `
      <path d="M352 124 H394 V196" stroke="#94a3b8" stroke-width="12" fill="none" stroke-linecap="round"/>
      <rect x="166" y="118" width="134" height="66" rx="12" fill="url(#a)"/>
      ${[186, 204, 222, 240, 258, 276].map((x) => `<path d="M${x} 126 V176" stroke="#fff" stroke-opacity=".18" stroke-width="5"/>`).join('')}
      <rect x="106" y="178" width="268" height="92" rx="46" fill="url(#m)"/>
      <circle cx="332" cy="150" r="24" fill="#f8fafc" stroke="#94a3b8" stroke-width="6"/>
      <path d="M332 150 L344 138" stroke="#dc2626" stroke-width="3" stroke-linecap="round"/>
      <circle cx="152" cy="282" r="22" fill="#1f2937"/><circle cx="152" cy="282" r="8" fill="#94a3b8"/>
      <rect x="320" y="264" width="16" height="34" rx="4" fill="#1f2937"/>`,
  ),
  'steel-toolbox': art(
    ['#dc2626', '#cbd5e1'],
    ['#1d4ed8', '#cbd5e1'],
    (p) => `
      <path d="M198 132 V104 H282 V132" stroke="#94a3b8" stroke-width="12" fill="none"/>
      <path d="M108 172 L130 128 H350 L372 172 Z" fill="${lighten(p.main, 0.15)}"/>
      <rect x="108" y="168" width="264" height="124" rx="8" fill="url(#m)"/>
      <path d="M108 214 H372" stroke="#000" stroke-opacity=".18" stroke-width="4"/>
      <rect x="146" y="160" width="24" height="32" rx="4" fill="url(#a)"/><rect x="310" y="160" width="24" height="32" rx="4" fill="url(#a)"/>`,
  ),
  'extension-reel-25m': art(
    ['#f97316', '#1f2937'],
    ['#facc15', '#1f2937'],
    (p) => `
      <path d="M170 292 L200 220 M310 292 L280 220" stroke="#2b3340" stroke-width="14" stroke-linecap="round"/>
      <circle cx="240" cy="182" r="106" fill="url(#a)"/>
      <circle cx="240" cy="182" r="90" fill="url(#m)"/>
      ${[76, 62, 48].map((r) => `<circle cx="240" cy="182" r="${r}" fill="none" stroke="${darken(p.main, 0.2)}" stroke-width="3"/>`).join('')}
      <circle cx="240" cy="182" r="34" fill="url(#a)"/>
      <circle cx="228" cy="176" r="5" fill="#111827"/><circle cx="252" cy="176" r="5" fill="#111827"/>
      <path d="M330 212 C380 230 380 290 420 296" stroke="${p.main}" stroke-width="10" fill="none" stroke-linecap="round"/>`,
  ),

  // Health & Beauty
  'aloe-vera-gel-250ml': art(
    ['#4ade80', '#f8fafc'],
    ['#a5f3fc', '#0f766e'],
    () => `
      <path d="M328 296 Q342 180 402 110 Q384 204 356 296 Z" fill="#16a34a"/>
      <path d="M360 296 Q390 210 440 176 Q414 240 384 296 Z" fill="#22c55e"/>
      <rect x="160" y="150" width="156" height="146" rx="24" fill="url(#m)" opacity=".9"/>
      <rect x="160" y="194" width="156" height="56" fill="#fff" opacity=".85"/>
      <path d="M238 244 Q222 220 238 198 Q254 220 238 244 Z" fill="#16a34a"/>
      <rect x="154" y="118" width="168" height="40" rx="10" fill="url(#a)"/>
      <path d="M176 166 V284" stroke="#fff" stroke-width="8" stroke-linecap="round" opacity=".4"/>`,
  ),
  'vitamin-c-serum': art(
    ['#f59e0b', '#f97316'],
    ['#93c5fd', '#ec4899'],
    (p) => `
      <circle cx="350" cy="256" r="46" fill="${p.accent}"/>
      <circle cx="350" cy="256" r="38" fill="${lighten(p.accent, 0.5)}"/>
      ${[0, 60, 120].map((a) => `<path d="M312 256 H388" stroke="${p.accent}" stroke-width="3" transform="rotate(${a} 350 256)"/>`).join('')}
      <rect x="188" y="140" width="104" height="156" rx="18" fill="url(#m)" opacity=".92"/>
      <rect x="214" y="118" width="52" height="30" fill="url(#m)"/>
      <rect x="202" y="98" width="76" height="28" rx="6" fill="url(#w)"/>
      <path d="M222 100 V70 Q222 44 240 44 Q258 44 258 70 V100 Z" fill="url(#k)"/>
      <rect x="188" y="194" width="104" height="52" fill="#fff" opacity=".85"/>
      <circle cx="240" cy="220" r="12" fill="${p.accent}"/>`,
  ),
  'bamboo-toothbrush-4-pack': art(['#d6a86b', '#38bdf8'], ['#a3a3a3', '#f472b6'], (p) =>
    [p.accent, '#f8fafc', '#86efac']
      .map(
        (colour, i) => `<g transform="translate(${-20 + i * 26} ${-40 + i * 44}) rotate(-24 240 190)">
        <rect x="110" y="180" width="270" height="22" rx="11" fill="url(#m)"/>
        <rect x="316" y="154" width="62" height="28" rx="3" fill="${colour}"/>
        ${[324, 336, 348, 360, 372].map((x) => `<path d="M${x} 156 V180" stroke="#000" stroke-opacity=".12" stroke-width="2"/>`).join('')}
      </g>`,
      )
      .join(''),
  ),
  'hand-sanitizer-500ml': art(
    ['#7dd3fc', '#f8fafc'],
    ['#c4b5fd', '#1f2937'],
    () => `
      <path d="M210 74 H160 V84 H210 Z" fill="url(#a)"/>
      <rect x="206" y="64" width="66" height="16" rx="4" fill="url(#a)"/>
      <rect x="228" y="78" width="24" height="34" fill="url(#a)"/>
      <rect x="216" y="108" width="48" height="26" rx="4" fill="url(#a)"/>
      <path d="M174 152 Q174 130 200 130 H280 Q306 130 306 152 V290 Q306 300 296 300 H184 Q174 300 174 290 Z" fill="url(#m)" opacity=".9"/>
      <rect x="174" y="188" width="132" height="64" fill="#fff" opacity=".85"/>
      <path d="M240 200 Q226 220 240 238 Q254 220 240 200 Z" fill="#0ea5e9"/>
      <circle cx="200" cy="274" r="6" fill="#fff" opacity=".6"/><circle cx="214" cy="282" r="4" fill="#fff" opacity=".6"/>`,
  ),
  'shea-butter-body-lotion': art(
    ['#fef3c7', '#a16207'],
    ['#fce7f3', '#be185d'],
    (p) => `
      <circle cx="346" cy="280" r="20" fill="#92400e"/><circle cx="376" cy="286" r="16" fill="#a16207"/><circle cx="130" cy="284" r="17" fill="#92400e"/>
      <rect x="208" y="64" width="64" height="46" rx="9" fill="url(#a)"/>
      <rect x="176" y="100" width="128" height="200" rx="40" fill="url(#m)"/>
      <rect x="176" y="168" width="128" height="70" fill="${p.accent}" opacity=".85"/>
      <path d="M240 178 Q262 202 240 228 Q218 202 240 178 Z" fill="${lighten(p.main, 0.3)}"/>
      <path d="M194 116 V280" stroke="#fff" stroke-width="9" stroke-linecap="round" opacity=".55"/>`,
  ),
  'hair-dryer-compact': art(
    ['#ec4899', '#1f2937'],
    ['#f8fafc', '#7c3aed'],
    (p) => `
      <path d="M226 296 C226 320 200 330 170 322" stroke="#2b3340" stroke-width="8" fill="none" stroke-linecap="round"/>
      <path d="M206 186 L264 186 L248 296 Q242 306 226 302 L204 296 Z" fill="url(#m)"/>
      <rect x="226" y="220" width="14" height="28" rx="5" fill="${p.accent}"/>
      <path d="M348 124 L404 134 V178 L348 188 Z" fill="url(#a)"/>
      <rect x="146" y="108" width="208" height="92" rx="46" fill="url(#m)"/>
      <circle cx="160" cy="154" r="42" fill="url(#a)"/>
      ${[-20, -10, 0, 10, 20].map((d) => `<path d="M${160 + d} 124 V184" stroke="#fff" stroke-opacity=".2" stroke-width="3"/>`).join('')}
      <path d="M210 122 H320" stroke="#fff" stroke-width="7" stroke-linecap="round" opacity=".4"/>`,
  ),
  'sunscreen-spf-50': art(
    ['#fde047', '#f97316'],
    ['#f8fafc', '#0ea5e9'],
    (p) => `
      ${tube(240, 'url(#m)', p.accent)}
      <circle cx="240" cy="160" r="22" fill="${p.accent}"/>
      ${Array.from({ length: 8 }, (_, i) => `<path d="M240 124 V132" stroke="${p.accent}" stroke-width="5" stroke-linecap="round" transform="rotate(${i * 45} 240 160)"/>`).join('')}`,
  ),
  'lip-balm-trio': art(['#f472b6', '#a78bfa'], ['#fb7185', '#34d399'], (p) =>
    [
      [168, p.main, 10],
      [240, p.accent, 0],
      [312, '#fbbf24', -8],
    ]
      .map(
        ([x, colour, angle]) => `<g transform="rotate(${angle} ${x} 300)">
        <rect x="${Number(x) - 24}" y="116" width="48" height="184" rx="9" fill="${colour}"/>
        <rect x="${Number(x) - 24}" y="182" width="48" height="8" fill="#fff" opacity=".6"/>
        <rect x="${Number(x) - 14}" y="124" width="8" height="168" rx="4" fill="#fff" opacity=".3"/>
      </g>`,
      )
      .join(''),
  ),
  'face-masks-50-pack': art(
    ['#93c5fd', '#f8fafc'],
    ['#a7f3d0', '#1f2937'],
    (p) => `
      <rect x="248" y="110" width="178" height="170" rx="6" fill="url(#w)"/>
      <path d="M248 110 H426 L410 96 H264 Z" fill="${darken('#f8fafc', 0.12)}"/>
      <rect x="298" y="126" width="78" height="20" rx="10" fill="${darken(p.main, 0.1)}"/>
      <rect x="248" y="200" width="178" height="30" fill="${p.main}"/>
      <ellipse cx="106" cy="212" rx="26" ry="42" fill="none" stroke="${p.accent === '#1f2937' ? '#475569' : '#e2e8f0'}" stroke-width="5"/>
      <ellipse cx="296" cy="212" rx="26" ry="42" fill="none" stroke="${p.accent === '#1f2937' ? '#475569' : '#e2e8f0'}" stroke-width="5"/>
      <path d="M106 168 Q200 148 294 168 V256 Q200 280 106 256 Z" fill="url(#m)"/>
      <path d="M110 196 Q200 184 290 196 M110 222 Q200 212 290 222" stroke="#000" stroke-opacity=".12" stroke-width="4" fill="none"/>
      <path d="M170 164 Q200 158 230 164" stroke="#cbd5e1" stroke-width="5" stroke-linecap="round" fill="none"/>`,
  ),
  'argan-oil-shampoo': art(
    ['#b45309', '#fcd34d'],
    ['#0f766e', '#f8fafc'],
    (p) => `
      <rect x="216" y="58" width="48" height="40" rx="7" fill="url(#k)"/>
      <path d="M198 112 Q198 94 216 92 H264 Q282 94 282 112 L292 290 Q292 300 282 300 H198 Q188 300 188 290 Z" fill="url(#m)"/>
      <path d="M192 178 H288 L290 248 H190 Z" fill="${p.accent}"/>
      <path d="M240 190 Q222 214 240 236 Q258 214 240 190 Z" fill="${p.main}"/>
      <path d="M208 110 L204 282" stroke="#fff" stroke-width="8" stroke-linecap="round" opacity=".3"/>`,
  ),

  // Office Supplies & Stationery
  'a4-copy-paper-500-sheets': art(
    ['#2563eb', '#f8fafc'],
    ['#16a34a', '#f8fafc'],
    (p) => `
      <path d="M112 172 L300 126 L384 168 L196 216 Z" fill="url(#m)"/>
      <path d="M176 156 L226 144 L310 186 L260 198 Z" fill="#fff" opacity=".9"/>
      <path d="M112 172 L196 216 V282 L112 238 Z" fill="${darken(p.main, 0.1)}"/>
      <path d="M196 216 L384 168 V234 L196 282 Z" fill="#f1f5f9"/>
      ${[180, 192, 204, 216, 228].map((y) => `<path d="M196 ${y + 36} L384 ${y - 12}" stroke="#cbd5e1" stroke-width="2"/>`).join('')}
      <path d="M196 216 L384 168 V186 L196 234 Z" fill="${p.main}"/>
      <path d="M196 264 L384 216 V234 L196 282 Z" fill="${p.main}"/>`,
  ),
  'gel-pens-12-pack': art(['#2563eb', '#ef4444'], ['#db2777', '#0d9488'], (p) =>
    [
      [-28, '#8b5cf6'],
      [-14, p.accent],
      [0, p.main],
      [14, '#22c55e'],
      [28, '#f59e0b'],
    ]
      .map(([a, c]) => pen(Number(a), String(c)))
      .join(''),
  ),
  'spiral-notebook-a5': art(
    ['#8b5cf6', '#f97316'],
    ['#0f766e', '#fde047'],
    (p) => `
      <g transform="rotate(-8 240 190)">
        <rect x="160" y="74" width="190" height="238" rx="8" fill="#f8fafc"/>
        <rect x="152" y="66" width="190" height="238" rx="10" fill="url(#m)"/>
        <rect x="304" y="66" width="14" height="238" fill="${p.accent}"/>
        <rect x="192" y="120" width="92" height="50" rx="6" fill="#fff" opacity=".85"/>
        ${Array.from({ length: 11 }, (_, i) => `<circle cx="166" cy="${84 + i * 21}" r="4" fill="#1f2937"/><rect x="140" y="${80 + i * 21}" width="30" height="8" rx="4" fill="url(#s)"/>`).join('')}
      </g>`,
  ),
  'stapler-heavy-duty': art(
    ['#dc2626', '#1f2937'],
    ['#2b3340', '#94a3b8'],
    () => `
      <path d="M78 272 H400 Q412 272 412 284 V294 H78 Z" fill="url(#k)"/>
      <rect x="330" y="262" width="60" height="12" rx="3" fill="url(#s)"/>
      <path d="M108 246 L392 224" stroke="#94a3b8" stroke-width="12" stroke-linecap="round"/>
      <path d="M98 232 Q98 180 150 174 L380 158 Q408 158 406 186 L400 216 Q396 232 378 232 L112 256 Z" fill="url(#m)"/>
      <path d="M150 182 L372 168" stroke="#fff" stroke-width="7" stroke-linecap="round" opacity=".35"/>
      <circle cx="112" cy="252" r="16" fill="url(#a)"/>`,
  ),
  'sticky-notes-12-pads': art(
    ['#fde047', '#f472b6'],
    ['#86efac', '#93c5fd'],
    (p) => `${stickyPad(180, 186, -12, p.accent, false)}${stickyPad(300, 200, 10, '#93c5fd', false)}${stickyPad(236, 176, -2, p.main, true)}`,
  ),
  'desk-organizer': art(
    ['#2b3340', '#ef4444'],
    ['#f1f5f9', '#2563eb'],
    (p) => `
      <g transform="rotate(-10 210 180)"><rect x="190" y="60" width="14" height="140" rx="5" fill="${p.accent}"/></g>
      <g transform="rotate(8 250 180)"><rect x="240" y="70" width="14" height="130" rx="5" fill="#22c55e"/></g>
      <g transform="rotate(-2 228 180)"><rect x="218" y="52" width="16" height="150" rx="3" fill="#facc15"/><path d="M218 52 L226 36 L234 52 Z" fill="#fde68a"/></g>
      <rect x="282" y="120" width="12" height="90" rx="4" fill="#8b5cf6" transform="rotate(14 288 180)"/>
      <path d="M158 166 H322 L312 300 H168 Z" fill="url(#m)"/>
      ${[180, 200, 220, 240, 260, 280, 300].map((x) => `<path d="M${x} 172 L${x - (x - 240) * 0.06} 294" stroke="#fff" stroke-opacity=".12" stroke-width="4"/>`).join('')}
      <path d="M322 220 H380 L374 300 H316 Z" fill="url(#m)"/>`,
  ),
  'highlighters-6-colours': art(['#fde047', '#f472b6'], ['#4ade80', '#fb923c'], (p) =>
    [p.main, p.accent, '#4ade80', '#fb923c', '#60a5fa', '#c084fc']
      .map((colour, i) => {
        const x = 140 + i * 40;
        return `<g><rect x="${x - 16}" y="112" width="32" height="188" rx="10" fill="${colour}"/>
          <rect x="${x - 16}" y="112" width="32" height="64" rx="10" fill="${darken(colour, 0.12)}"/>
          <rect x="${x - 10}" y="120" width="6" height="48" rx="3" fill="#fff" opacity=".5"/>
          <rect x="${x - 16}" y="180" width="32" height="56" fill="#fff" opacity=".3"/></g>`;
      })
      .join(''),
  ),
  'binder-clips-assorted': art(
    ['#1f2937', '#ef4444'],
    ['#2563eb', '#facc15'],
    (p) =>
      `${binderClip(150, 240, -12, p.accent, 0.9)}${binderClip(330, 236, 14, '#22c55e', 0.9)}${binderClip(240, 214, 0, p.main, 1.25)}${binderClip(380, 290, 30, '#8b5cf6', 0.6)}`,
  ),
  'whiteboard-markers': art(
    ['#2563eb', '#ef4444'],
    ['#16a34a', '#1f2937'],
    (p) => `${marker(240, 130, -18, p.accent)}${marker(244, 178, -10, '#1f2937')}${marker(236, 226, -4, '#16a34a')}${marker(240, 276, 4, p.main)}`,
  ),
  'file-folders-25-pack': art(
    ['#fbbf24', '#3b82f6'],
    ['#f472b6', '#22c55e'],
    (p) => `
      <path d="M140 98 H220 L234 112 H380 V272 H140 Z" fill="${darken(p.accent, 0.1)}"/>
      <path d="M120 118 H200 L214 132 H360 V292 H120 Z" fill="${darken(p.main, 0.12)}"/>
      <rect x="140" y="126" width="200" height="140" fill="#f8fafc" transform="rotate(-3 240 196)"/>
      <path d="M160 150 H300 M160 170 H310 M160 190 H280" stroke="#cbd5e1" stroke-width="5" transform="rotate(-3 240 196)"/>
      <path d="M108 168 H372 L360 300 H120 Z" fill="url(#m)"/>`,
  ),
};

const CATEGORY_BACKGROUND: Record<Category, [string, string]> = {
  'Electronics & Gadgets': ['#eaf2ff', '#b7cff5'],
  'Home & Kitchen Appliances': ['#fff3e6', '#f6cfa4'],
  'Fashion & Apparel': ['#fdeef5', '#f0bfd6'],
  'Industrial Machinery & Tools': ['#f1f4f8', '#c5cfdc'],
  'Health & Beauty': ['#e9f8ef', '#b5e2c8'],
  'Office Supplies & Stationery': ['#e6f7f6', '#a9dcd7'],
};

function backdrop(category: Category, width: number, height: number, tone = 0): string {
  const [light, dark] = CATEGORY_BACKGROUND[category];
  const edge = tone ? darken(dark, tone) : dark;
  return `<radialGradient id="bg" cx="0.5" cy="0.38" r="0.8"><stop offset="0" stop-color="${lighten(light, 0.5)}"/><stop offset="1" stop-color="${edge}"/></radialGradient>
    <filter id="soft" x="-50%" y="-200%" width="200%" height="500%"><feGaussianBlur stdDeviation="9"/></filter>
    </defs><rect width="${width}" height="${height}" fill="url(#bg)"/>`;
}

function floorShadow(cx: number, cy: number, rx: number): string {
  return `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="15" fill="#0f172a" opacity=".16" filter="url(#soft)"/>`;
}

/** Variant 1: the catalog colour. 2: the other colour. 3: the other side, turned and closer. */
function productSvg(category: Category, art: ProductArt, variant: 1 | 2 | 3): string {
  const palette = variant === 2 ? art.colours[1] : art.colours[0];
  const pose = variant === 3 ? 'translate(240 190) scale(-1.12 1.12) rotate(-7) translate(-240 -190)' : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PRODUCT_W}" height="${PRODUCT_H}" viewBox="0 0 ${PRODUCT_W} ${PRODUCT_H}">
    <defs>${materialDefs(palette)}${backdrop(category, PRODUCT_W, PRODUCT_H, variant === 3 ? 0.06 : 0)}
    ${floorShadow(240, 304, 150)}
    <g transform="${pose}">${art.draw(palette)}</g>
  </svg>`;
}

// ---------------------------------------------------------------------------------------------
// Home category cards: three of the category's products on its backdrop

const CATEGORY_CARD_ITEMS: Partial<Record<Category, [string, string, string]>> = {
  'Fashion & Apparel': ['baseball-cap', 'cotton-crew-t-shirt', 'canvas-tote-bag'],
  'Home & Kitchen Appliances': ['toaster-2-slice', 'electric-kettle-1-7l', 'coffee-grinder'],
  'Health & Beauty': ['vitamin-c-serum', 'shea-butter-body-lotion', 'hand-sanitizer-500ml'],
  'Office Supplies & Stationery': ['sticky-notes-12-pads', 'spiral-notebook-a5', 'gel-pens-12-pack'],
  'Electronics & Gadgets': ['wireless-earbuds-pro', 'smart-watch-lite', 'bluetooth-speaker-mini'],
};

function artFor(slug: string): ProductArt {
  const art = ART[slug];
  if (!art) throw new Error(`No drawing for ${slug}`);
  return art;
}

function placed(slug: string, suffix: string, cx: number, cy: number, scale: number, colour: 0 | 1): string {
  const art = artFor(slug);
  const fragment = withSuffix(art.draw(art.colours[colour]), suffix);
  return `${floorShadow(cx, cy + 110 * scale, 120 * scale)}<g transform="translate(${cx - 240 * scale} ${cy - 190 * scale}) scale(${scale})">${fragment}</g>`;
}

function categoryCardSvg(category: Category, items: [string, string, string]): string {
  const [left, centre, right] = items;
  const defs = items.map((slug, i) => materialDefs(artFor(slug).colours[i === 1 ? 0 : 1], String(i))).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PRODUCT_W}" height="${PRODUCT_H}" viewBox="0 0 ${PRODUCT_W} ${PRODUCT_H}">
    <defs>${defs}${backdrop(category, PRODUCT_W, PRODUCT_H)}
    ${placed(left, '0', 104, 168, 0.44, 1)}${placed(right, '2', 376, 168, 0.44, 1)}${placed(centre, '1', 240, 196, 0.62, 0)}
  </svg>`;
}

// ---------------------------------------------------------------------------------------------
// Banner slides: flat colours so 1600x700 fits in 40 KB

interface Frame {
  width: number;
  height: number;
}

function carton(x: number, y: number, w: number, h: number): string {
  return `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#c98f55"/><rect x="${x + w * 0.7}" y="${y}" width="${w * 0.3}" height="${h}" fill="#b07843"/><rect x="${x + w * 0.3}" y="${y}" width="${w * 0.14}" height="${h * 0.45}" fill="#e3b97f"/>`;
}

function pallet(x: number, y: number, w: number): string {
  return `<rect x="${x}" y="${y}" width="${w}" height="10" fill="#a16207"/><rect x="${x + 6}" y="${y + 10}" width="14" height="10" fill="#854d0e"/><rect x="${x + w / 2 - 7}" y="${y + 10}" width="14" height="10" fill="#854d0e"/><rect x="${x + w - 20}" y="${y + 10}" width="14" height="10" fill="#854d0e"/>`;
}

function rack(x: number, floorY: number, w: number, levels: number, levelH: number, seed: number): string {
  const parts: string[] = [];
  for (let l = 0; l < levels; l++) {
    const beamY = floorY - (l + 1) * levelH;
    // Cartons of varied sizes so each shelf looks stocked by hand.
    let cx = x + 18;
    let k = seed + l * 7;
    while (cx < x + w - 60) {
      const bw = 44 + ((k * 37) % 46);
      const bh = Math.min(levelH - 24, 40 + ((k * 53) % 50));
      if (cx + bw > x + w - 16) break;
      if ((k * 11) % 5 !== 0) parts.push(carton(cx, beamY - bh, bw, bh));
      cx += bw + 8;
      k += 3;
    }
    parts.push(`<rect x="${x}" y="${beamY}" width="${w}" height="12" fill="#f97316"/>`);
  }
  parts.push(`<rect x="${x - 8}" y="${floorY - levels * levelH - 20}" width="14" height="${levels * levelH + 20}" fill="#1e3a8a"/>`);
  parts.push(`<rect x="${x + w - 6}" y="${floorY - levels * levelH - 20}" width="14" height="${levels * levelH + 20}" fill="#1e3a8a"/>`);
  return parts.join('');
}

function forklift(x: number, floorY: number, scale: number): string {
  return `<g transform="translate(${x} ${floorY}) scale(${scale})">
    <rect x="150" y="-250" width="14" height="250" fill="#334155"/><rect x="170" y="-250" width="14" height="250" fill="#334155"/>
    <rect x="184" y="-44" width="110" height="10" fill="#475569"/>
    ${pallet(186, -66, 104)}${carton(192, -150, 90, 84)}${carton(204, -212, 66, 62)}
    <path d="M0 -90 H150 V-20 H0 Z" fill="#facc15"/>
    <path d="M30 -90 V-190 H120 L140 -90" stroke="#1f2937" stroke-width="10" fill="none"/>
    <rect x="10" y="-130" width="34" height="40" fill="#eab308"/>
    <rect x="70" y="-120" width="40" height="30" fill="#1f2937"/>
    <circle cx="34" cy="-16" r="26" fill="#1f2937"/><circle cx="34" cy="-16" r="10" fill="#94a3b8"/>
    <circle cx="122" cy="-16" r="26" fill="#1f2937"/><circle cx="122" cy="-16" r="10" fill="#94a3b8"/>
  </g>`;
}

function warehouseSlide({ width, height }: Frame): string {
  const floorY = Math.round(height * 0.8);
  const isWide = width / height > 1.6;
  const rackW = isWide ? 420 : 340;
  const levels = 3;
  const levelH = Math.round((floorY - 90) / (levels + 0.3));
  const racks = isWide ? [60, 520, 980, 1440] : [30, 440];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
    <rect width="${width}" height="${height}" fill="#dbe6f2"/>
    <rect width="${width}" height="46" fill="#c3d3e6"/>
    ${Array.from({ length: Math.ceil(width / 260) }, (_, i) => `<rect x="${60 + i * 260}" y="46" width="120" height="10" fill="#fef9c3"/>`).join('')}
    <rect y="${floorY}" width="${width}" height="${height - floorY}" fill="#94a3b8"/>
    <rect y="${floorY}" width="${width}" height="8" fill="#64748b"/>
    ${Array.from({ length: Math.ceil(width / 120) }, (_, i) => `<rect x="${i * 120}" y="${floorY + (height - floorY) * 0.55}" width="70" height="8" fill="#facc15"/>`).join('')}
    ${racks.map((x, i) => rack(x, floorY, rackW, levels, levelH, i * 5 + 1)).join('')}
    ${forklift(isWide ? 980 : 420, floorY + 34, isWide ? 1.15 : 0.95)}
  </svg>`;
}

function cardSlide({ width, height }: Frame): string {
  const isWide = width / height > 1.6;
  const cx = isWide ? 1080 : 540;
  const cy = isWide ? 360 : 410;
  const s = isWide ? 1 : 0.64;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
    <rect width="${width}" height="${height}" fill="#1e3a5f"/>
    <circle cx="${cx}" cy="${cy}" r="${330 * s}" fill="#24456e"/>
    <circle cx="${cx + 260 * s}" cy="${cy - 250 * s}" r="${120 * s}" fill="#2a4f7c"/>
    <g transform="translate(${cx} ${cy}) scale(${s})">
      <g transform="rotate(-14)">
        <rect x="-250" y="-150" width="420" height="260" rx="26" fill="#0d9488"/>
        <rect x="-250" y="-96" width="420" height="44" fill="#115e59"/>
      </g>
      <g transform="rotate(8) translate(40 40)">
        <rect x="-220" y="-140" width="420" height="260" rx="26" fill="#f59e0b"/>
        <rect x="-180" y="-80" width="64" height="48" rx="8" fill="#fde68a"/>
        <path d="M-180 -56 H-116 M-148 -80 V-32" stroke="#d97706" stroke-width="4"/>
        <rect x="-180" y="30" width="70" height="16" rx="8" fill="#fff7ed"/><rect x="-96" y="30" width="70" height="16" rx="8" fill="#fff7ed"/><rect x="-12" y="30" width="70" height="16" rx="8" fill="#fff7ed"/>
        <circle cx="130" cy="74" r="26" fill="#dc2626"/><circle cx="160" cy="74" r="26" fill="#fbbf24" opacity=".9"/>
      </g>
      <g transform="translate(250 -190) rotate(12)">
        <path d="M-70 -46 H40 L80 0 L40 46 H-70 Z" fill="#fb7185"/>
        <circle cx="40" cy="0" r="10" fill="#1e3a5f"/>
        <circle cx="-44" cy="-14" r="11" fill="none" stroke="#fff" stroke-width="7"/><circle cx="-4" cy="16" r="11" fill="none" stroke="#fff" stroke-width="7"/>
        <path d="M-6 -24 L-42 26" stroke="#fff" stroke-width="7" stroke-linecap="round"/>
      </g>
      ${carton(-330, 150, 130, 100)}${carton(-190, 170, 100, 80)}${carton(-300, 80, 90, 70)}
    </g>
  </svg>`;
}

function truckSlide({ width, height }: Frame): string {
  const isWide = width / height > 1.6;
  const roadY = Math.round(height * (isWide ? 0.78 : 0.84));
  const x = isWide ? 850 : 250;
  const s = isWide ? 0.86 : 0.66;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
    <rect width="${width}" height="${height}" fill="#fde8c8"/>
    <circle cx="${isWide ? 1290 : 680}" cy="${isWide ? 130 : 110}" r="${isWide ? 80 : 60}" fill="#fbbf24"/>
    <path d="M0 ${roadY - 120} Q${width * 0.25} ${roadY - 220} ${width * 0.5} ${roadY - 130} T${width} ${roadY - 150} V${roadY} H0 Z" fill="#f7c98e"/>
    <rect y="${roadY}" width="${width}" height="${height - roadY}" fill="#475569"/>
    ${Array.from({ length: Math.ceil(width / 160) }, (_, i) => `<rect x="${i * 160 + 20}" y="${roadY + (height - roadY) / 2 - 4}" width="90" height="8" fill="#f8fafc"/>`).join('')}
    <g transform="translate(${x} ${roadY}) scale(${s})">
      <g transform="translate(-210 0)">${pallet(0, -20, 170)}${carton(6, -120, 90, 100)}${carton(100, -100, 66, 80)}${carton(20, -200, 70, 80)}</g>
      <rect x="0" y="-330" width="470" height="270" rx="12" fill="#f8fafc"/>
      <rect x="0" y="-100" width="470" height="40" fill="#dc2626"/>
      <path d="M150 -250 L230 -280 L310 -250 L230 -220 Z" fill="#fecaca"/>
      <path d="M150 -250 L230 -220 V-140 L150 -170 Z" fill="#f87171"/>
      <path d="M230 -220 L310 -250 V-170 L230 -140 Z" fill="#dc2626"/>
      <path d="M470 -250 H590 L660 -160 V-60 H470 Z" fill="#dc2626"/>
      <path d="M492 -232 H580 L630 -166 H492 Z" fill="#bfdbfe"/>
      <rect x="640" y="-96" width="26" height="20" fill="#fde047"/>
      <circle cx="110" cy="-50" r="48" fill="#1f2937"/><circle cx="110" cy="-50" r="18" fill="#cbd5e1"/>
      <circle cx="230" cy="-50" r="48" fill="#1f2937"/><circle cx="230" cy="-50" r="18" fill="#cbd5e1"/>
      <circle cx="560" cy="-50" r="48" fill="#1f2937"/><circle cx="560" cy="-50" r="18" fill="#cbd5e1"/>
    </g>
  </svg>`;
}

// ---------------------------------------------------------------------------------------------
// FAQ illustration

function faqSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="400" viewBox="0 0 480 400">
    <rect width="480" height="400" rx="24" fill="#e8f0fa"/>
    <circle cx="360" cy="110" r="70" fill="#d6e4f5"/>
    <rect x="60" y="60" width="230" height="150" rx="26" fill="#1e3a5f"/>
    <path d="M110 206 L100 258 L160 206 Z" fill="#1e3a5f"/>
    <path d="M150 110 Q150 84 176 84 Q202 84 202 108 Q202 124 186 132 Q176 138 176 152 V160" stroke="#fbbf24" stroke-width="16" fill="none" stroke-linecap="round"/>
    <circle cx="176" cy="186" r="10" fill="#fbbf24"/>
    <rect x="300" y="150" width="130" height="92" rx="22" fill="#fbbf24"/>
    <path d="M400 238 L414 276 L368 238 Z" fill="#fbbf24"/>
    <circle cx="334" cy="196" r="9" fill="#1e3a5f"/><circle cx="365" cy="196" r="9" fill="#1e3a5f"/><circle cx="396" cy="196" r="9" fill="#1e3a5f"/>
    <rect x="170" y="262" width="150" height="110" rx="6" fill="#c98f55"/>
    <rect x="275" y="262" width="45" height="110" fill="#b07843"/>
    <rect x="214" y="262" width="22" height="44" fill="#e3b97f"/>
    <rect x="330" y="300" width="90" height="72" rx="6" fill="#c98f55"/>
    <rect x="392" y="300" width="28" height="72" fill="#b07843"/>
    <rect x="40" y="290" width="110" height="82" rx="8" fill="#f8fafc"/>
    <path d="M58 314 l8 8 l14 -16 M58 340 l8 8 l14 -16" stroke="#16a34a" stroke-width="5" fill="none" stroke-linecap="round"/>
    <path d="M92 318 H134 M92 344 H126" stroke="#94a3b8" stroke-width="6" stroke-linecap="round"/>
    <rect x="20" y="372" width="440" height="10" rx="5" fill="#c7d5e6"/>
  </svg>`;
}

// ---------------------------------------------------------------------------------------------
// Rendering

async function toWebp(svg: string, options: { quality: number; lossless?: boolean }): Promise<Buffer> {
  return sharp(Buffer.from(svg))
    .webp({ quality: options.quality, lossless: options.lossless ?? false, effort: 6, smartSubsample: true })
    .toBuffer();
}

/** Highest quality that still fits the budget, so flat drawings stay crisp and gradients stay smooth. */
async function renderWithinBudget(svg: string): Promise<Buffer> {
  for (const quality of [82, 74, 66, 58, 50, 42]) {
    const webp = await toWebp(svg, { quality });
    if (webp.length <= MAX_BYTES * 0.9) return webp;
  }
  return toWebp(svg, { quality: 35 });
}

interface Output {
  file: string;
  bytes: number;
}

async function write(relative: string, svg: string): Promise<Output> {
  const webp = await renderWithinBudget(svg);
  const file = path.join(IMAGES_DIR, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, webp);
  return { file: relative, bytes: webp.length };
}

function slugOf(image: string): string {
  return path.basename(image, '.webp');
}

async function main(): Promise<void> {
  const outputs: Output[] = [];
  const catalog = buildDemoCatalog();

  // Stale product pictures from an older catalog would ship forever; start that folder clean.
  rmSync(path.join(IMAGES_DIR, 'products'), { recursive: true, force: true });
  for (const product of catalog) {
    const art = artFor(product.slug);
    for (const [image, variant] of [
      [product.image, 1],
      [product.image2, 2],
      [product.image3, 3],
    ] as const) {
      if (!image) continue;
      if (!image.startsWith('/images/products/')) throw new Error(`Unexpected image path ${image}`);
      outputs.push(await write(`products/${slugOf(image)}.webp`, productSvg(product.category, art, variant)));
    }
  }

  for (const [category, items] of Object.entries(CATEGORY_CARD_ITEMS) as Array<[Category, [string, string, string]]>) {
    outputs.push(await write(`categories/${categorySlug(category)}.webp`, categoryCardSvg(category, items)));
  }

  const slides: Array<[string, (frame: Frame) => string]> = [
    ['banner-1', warehouseSlide],
    ['banner-2', cardSlide],
    ['banner-3', truckSlide],
  ];
  for (const [name, draw] of slides) {
    outputs.push(await write(`banner/${name}-desktop.webp`, draw({ width: 1600, height: 700 })));
    outputs.push(await write(`banner/${name}-mobile.webp`, draw({ width: 800, height: 600 })));
  }
  outputs.push(await write('faq.webp', faqSvg()));

  const tooBig = outputs.filter((o) => o.bytes > MAX_BYTES);
  const total = outputs.reduce((sum, o) => sum + o.bytes, 0);
  const largest = [...outputs].sort((a, b) => b.bytes - a.bytes).slice(0, 5);
  console.log(`${outputs.length} images, ${(total / 1024).toFixed(1)} KB in total`);
  console.log(`largest: ${largest.map((o) => `${o.file} ${(o.bytes / 1024).toFixed(1)} KB`).join(', ')}`);
  const onDisk = readdirSync(path.join(IMAGES_DIR, 'products')).length;
  if (onDisk !== catalog.reduce((n, p) => n + 1 + (p.image2 ? 1 : 0) + (p.image3 ? 1 : 0), 0)) {
    throw new Error(`products/ holds ${onDisk} files, not one per catalog image`);
  }
  if (tooBig.length > 0) {
    throw new Error(`Over ${MAX_BYTES} bytes: ${tooBig.map((o) => `${o.file} (${o.bytes})`).join(', ')}`);
  }
  for (const o of outputs) {
    if (statSync(path.join(IMAGES_DIR, o.file)).size !== o.bytes) throw new Error(`${o.file} was not written whole`);
  }
}

/** The file name of a category's card picture, shared with the home page by convention. */
function categorySlug(category: string): string {
  return category
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

await main();
