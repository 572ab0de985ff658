/**
 * Kubernetes resource quantities ("500m", "2Gi", "1.5Gi", "1e3") as plain numbers in base units
 * (cores, bytes, devices). @kubernetes/client-node's quantityToScalar throws on a fractional
 * amount with a binary suffix ("1.5Gi", valid in Kubernetes) and returns mixed number/bigint, so
 * the grammar of k8s.io/apimachinery's resource.Quantity is read here. null: not a quantity.
 */
/** Decimal fractions are divided by (3800m is 3800 / 1000 = 3.8, where 3800 × 0.001 is 3.8000000000000003). */
const FRACTION: Record<string, number> = { n: 1e9, u: 1e6, m: 1e3 };

const SUFFIX: Record<string, number> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/;

export function parseQuantity(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.length > 64) return null;
  const match = QUANTITY.exec(value.trim());
  if (!match) return null;
  const [, amount = '', exponent, suffix = ''] = match;
  const divisor = FRACTION[suffix];
  const number = divisor !== undefined ? Number(amount) / divisor : Number(amount) * (exponent ? 10 ** Number(exponent.slice(1)) : (SUFFIX[suffix] ?? Number.NaN));
  return Number.isFinite(number) ? number : null;
}

/** A byte count as people read it in Kubernetes: the largest binary unit that keeps it whole, else Mi with decimals. */
export function formatBytes(bytes: number): string {
  for (const unit of ['Ti', 'Gi', 'Mi', 'Ki'] as const) {
    const size = SUFFIX[unit] ?? 1;
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)}Mi` : `${bytes}`;
}

/** CPU as Kubernetes writes it: whole cores, else millicores. */
export function formatCpu(cores: number): string {
  return Number.isInteger(cores) ? `${cores}` : `${Math.round(cores * 1000)}m`;
}
