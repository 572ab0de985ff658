import { Readable } from 'node:stream';

/**
 * The API's large documents (the whole gate report, the node list), serialised once per report and
 * kept as bytes. At 5,000 nodes a report is about 1.4 MB of JSON: serialising it through the
 * response schema on every request built a string rope that Node then flattened twice (to count
 * its bytes, then to write it), and that was most of a request's time. A report never changes
 * once published, so its bytes can be reused until the next recompute replaces it; the
 * aggregator's own status, which does change between requests, is appended to each response.
 * Serialising is not evaluating: handlers still only serve the latest report.
 */
export class ReportBytes<Key> {
  /** Keyed weakly by the report: a replaced report and its bytes go together. */
  private readonly byReport = new WeakMap<object, Map<Key, Buffer>>();

  /**
   * The document for `report` and `key` (e.g. a filter), serialised by `serialise` the first time
   * it is asked for. The bytes are an object's JSON without its closing brace, ready for `withMember`.
   */
  open(report: object, key: Key, serialise: () => string | Buffer): Buffer {
    let documents = this.byReport.get(report);
    if (!documents) {
      documents = new Map();
      this.byReport.set(report, documents);
    }
    let bytes = documents.get(key);
    if (!bytes) {
      const json = serialise();
      const whole = typeof json === 'string' ? Buffer.from(json) : json;
      if (whole.length < 3 || whole[0] !== 0x7b || whole[whole.length - 1] !== 0x7d) throw new TypeError('ReportBytes: a document must be a non-empty JSON object');
      bytes = whole.subarray(0, -1);
      documents.set(key, bytes);
    }
    return bytes;
  }
}

/**
 * `open` (an object's JSON without its closing brace) with one more member, closed:
 * `{...,"name":value}`, as a stream of the shared bytes and a small tail, so that a request copies
 * nothing (a 1.4 MB copy per request was most of what remained of its cost), and its length.
 */
export function withMember(open: Buffer, name: string, valueJson: string): { body: Readable; length: number } {
  const tail = Buffer.from(`,${JSON.stringify(name)}:${valueJson}}`);
  return { body: Readable.from([open, tail], { objectMode: false }), length: open.length + tail.length };
}
