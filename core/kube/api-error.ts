/** What a failed Kubernetes API call tells the caller, whatever layer threw it. */
export interface ApiFailure {
  /** HTTP status, or 0 when no response arrived (refused, reset, timed out). */
  status: number;
  /** Seconds from a Retry-After header (429, 503), when present. */
  retryAfterSeconds?: number;
  message: string;
}

function headerValue(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  }
  return undefined;
}

function bodyMessage(body: unknown): string | undefined {
  if (typeof body === 'string') {
    try {
      return bodyMessage(JSON.parse(body));
    } catch {
      return body.slice(0, 300) || undefined;
    }
  }
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') return body.message;
  return undefined;
}

export function apiFailure(error: unknown): ApiFailure {
  const candidate = error as { code?: unknown; body?: unknown; headers?: unknown; message?: unknown; cause?: unknown };
  const status = typeof candidate?.code === 'number' ? candidate.code : 0;
  const retryAfter = Number(headerValue(candidate?.headers, 'retry-after'));
  const message =
    bodyMessage(candidate?.body) ??
    (error instanceof Error
      ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`
      : String(error));
  return {
    status,
    message: message.split('\n')[0] ?? '',
    ...(Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterSeconds: retryAfter } : {}),
  };
}

export const isNotFound = (error: unknown): boolean => apiFailure(error).status === 404;
export const isConflict = (error: unknown): boolean => apiFailure(error).status === 409;
/** 429: the server did not act on the request (throttled, or its watch cache still initializing). */
export const isThrottled = (error: unknown): boolean => apiFailure(error).status === 429;
/** A failure that may pass: no answer, 429, or a 5xx. */
export const isTransient = (error: unknown): boolean => {
  const { status } = apiFailure(error);
  return status === 0 || status === 429 || status >= 500;
};
