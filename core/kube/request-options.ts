import { type ConfigurationOptions, Observable, type ObservableMiddleware, type PatchStrategy } from '@kubernetes/client-node';

/**
 * Per-request options for @kubernetes/client-node: a hard timeout (the client has none, and a
 * slow API server must never stall a publish forever) and, for patches, the content type
 * (client-node sends JSON Patch unless told otherwise). Per-call middleware is the
 * observable kind, as `setHeaderOptions` builds it.
 */
export function requestOptions(timeoutMs: number, contentType?: PatchStrategy): ConfigurationOptions<ObservableMiddleware> {
  const middleware: ObservableMiddleware = {
    pre: (context) => {
      context.setSignal(AbortSignal.timeout(timeoutMs));
      if (contentType) context.setHeaderParam('Content-Type', contentType);
      return new Observable(Promise.resolve(context));
    },
    post: (response) => new Observable(Promise.resolve(response)),
  };
  return { middleware: [middleware], middlewareMergeStrategy: 'append' };
}
