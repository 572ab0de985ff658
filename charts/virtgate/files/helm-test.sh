# `helm test` of a virtgate release (templates/tests/gate-test.yaml). Run by /bin/sh -c with the
# arguments of `virtgate gate` ("$@"); AGGREGATOR_URL is the release's aggregator, VIRTGATE_CLI the
# CLI's entry point, AGGREGATOR_WAIT_SECONDS how long to keep asking it, 3 s apart
# (testFramework.aggregatorWaitSeconds; 60 when unset). The real
# node's test (test/node/chart.test.ts) runs it with `helm test`, in its pod.
set -u
# 1. The aggregator answers with its gate report (it needs a moment after install to sync).
node -e '
const url = `${process.argv[1]}/api/v1/gate`;
// One deadline for all attempts: a Service without endpoints can make each connect hang, not fail.
const deadline = Date.now() + 1000 * Number(process.env.AGGREGATOR_WAIT_SECONDS ?? 60);
const attempt = async () => {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(Math.max(1_000, Math.min(10_000, deadline - Date.now()))) });
    const body = await response.json();
    if (response.ok && body.kind === "GateReport" && typeof body.result === "string") return console.log(`the aggregator at ${url} answers: gate ${body.result}`);
    throw new Error(`HTTP ${response.status} ${body.kind ?? "(no kind)"} ${body.error ?? ""}`);
  } catch (error) {
    if (Date.now() + 3_000 >= deadline) { console.error(`the aggregator at ${url} does not answer: ${error.message}`); process.exit(1); }
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    return attempt();
  }
};
attempt();
' "$AGGREGATOR_URL" || exit 1
# 2. virtgate gate reads the cluster with this pod's ServiceAccount. 0 pass, 1 fail, 3 warn or
# unknown: it could read the cluster, so the release works. 2 bad input, 4 unreadable: it does not.
node "$VIRTGATE_CLI" gate "$@"
code=$?
case "$code" in
  0|1|3) echo "virtgate gate exited $code: the cluster could be read"; exit 0 ;;
  *) echo "virtgate gate exited $code" >&2; exit "$code" ;;
esac
