/** A probe result that either holds a value or says why the probe could not tell. */
export type Observation<T> =
  | { state: 'ok'; value: T }
  | { state: 'unknown'; reason: string };
