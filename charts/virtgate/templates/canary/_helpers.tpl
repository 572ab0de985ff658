{{/* The canary's ServiceAccount, in the release namespace beside its CronJob. */}}
{{- define "virtgate.canary.serviceAccountName" -}}
{{- printf "%s-canary" (include "virtgate.fullname" .) }}
{{- end }}

{{/* The username the API server gives the canary's ServiceAccount: its admission policy matches on it. */}}
{{- define "virtgate.canary.username" -}}
{{- printf "system:serviceaccount:%s:%s" .Release.Namespace (include "virtgate.canary.serviceAccountName" .) }}
{{- end }}
