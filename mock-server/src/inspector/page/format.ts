/** Display helpers of the inspector page. */

const digitsCache = new Map<string, number>();

/** How many minor units a currency has (EUR 2, JPY 0), from the platform's Intl data. */
export function minorDigits(currency: string): number {
  let digits = digitsCache.get(currency);
  if (digits === undefined) {
    try {
      digits =
        new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    digitsCache.set(currency, digits);
  }
  return digits;
}

/** Minor units as money text: `123456, EUR` → `1,234.56 EUR`. */
export function money(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  const major = amount / 10 ** digits;
  return `${major.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${currency}`;
}

/**
 * Major units typed by a person (`12.50`) as minor units, or NaN (not a number, or more decimals than the currency
 * has). Read digit by digit, never through floating point: `0.29` is 29, not 28.999….
 */
export function toMinor(text: string, currency: string): number {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  const digits = minorDigits(currency);
  if (!match || (match[2] ?? '').length > digits) return Number.NaN;
  const minor = Number(match[1] + (match[2] ?? '').padEnd(digits, '0'));
  return Number.isSafeInteger(minor) ? minor : Number.NaN;
}

/** A virtual-clock instant as `2026-11-21 09:00:00 UTC`. */
export function instant(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** A short virtual date: `Nov 21, 09:00`. */
export function shortInstant(iso: string): string {
  const d = new Date(iso);
  return `${d.toLocaleString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' })}, ${iso.slice(11, 16)}`;
}

/** A wall-clock time of the journal: `14:03:21.123`. */
export function wallTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** A request target with long query values cut (a card-details request carries a whole public key). */
export function shortTarget(target: string, max = 24): string {
  const q = target.indexOf('?');
  if (q === -1) return target;
  const parts = target
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const [name, value = ''] = pair.split('=');
      return value.length > max ? `${name}=${value.slice(0, 8)}…(${value.length} chars)` : pair;
    });
  return `${target.slice(0, q)}?${parts.join('&')}`;
}

/** A duration of seconds in words: 3600 → `1 h`, 90000 → `1 d 1 h`. */
export function duration(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const parts = [d ? `${d} d` : '', h ? `${h} h` : '', m && !d ? `${m} min` : ''].filter(Boolean);
  return parts.length ? parts.join(' ') : `${Math.round(seconds)} s`;
}
