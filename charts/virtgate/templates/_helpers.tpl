{{/* Object names: <release> when it already contains the chart name, else <release>-<chart>. */}}
{{- define "virtgate.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "virtgate.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Where the workloads live: a namespace the chart creates, else namespaceOverride, else the release namespace. */}}
{{- define "virtgate.namespace" -}}
{{- if .Values.namespace.create }}{{ .Values.namespace.name }}{{ else }}{{ default .Release.Namespace .Values.namespaceOverride }}{{ end }}
{{- end }}

{{- define "virtgate.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "virtgate.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: virtgate
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Selector labels of one component (agent, aggregator, prune). Call with (dict "ctx" $ "component" "agent"). */}}
{{- define "virtgate.selectorLabels" -}}
app.kubernetes.io/name: {{ include "virtgate.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "virtgate.componentLabels" -}}
{{ include "virtgate.labels" .ctx }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "virtgate.agent.serviceAccountName" -}}
{{- default (printf "%s-agent" (include "virtgate.fullname" .)) .Values.agent.serviceAccount.name }}
{{- end }}

{{- define "virtgate.aggregator.serviceAccountName" -}}
{{- default (printf "%s-aggregator" (include "virtgate.fullname" .)) .Values.aggregator.serviceAccount.name }}
{{- end }}

{{- define "virtgate.prune.serviceAccountName" -}}
{{- printf "%s-prune" (include "virtgate.fullname" .) }}
{{- end }}

{{/* The username the API server gives the agent's ServiceAccount: the admission policy matches on it. */}}
{{- define "virtgate.agent.username" -}}
{{- printf "system:serviceaccount:%s:%s" (include "virtgate.namespace" .) (include "virtgate.agent.serviceAccountName" .) }}
{{- end }}

{{/*
Image reference: [registry/]repository@digest, or [registry/]repository:tag (tag defaults to appVersion).
The registry is global.imageRegistry, else image.registry (Bitnami's and kube-prometheus-stack's
precedence: the global one is a mirror for every image). A repository whose first part is a
registry host (has a dot or a port, or is localhost: Docker's rule) already names its registry and
is used whole, as values written before image.registry existed expect.
Call with (dict "ctx" $ "image" .Values.agent.image).
*/}}
{{- define "virtgate.image" -}}
{{- $registry := default .image.registry (.ctx.Values.global).imageRegistry }}
{{- $first := first (splitList "/" .image.repository) }}
{{- $named := and (contains "/" .image.repository) (or (contains "." $first) (contains ":" $first) (eq $first "localhost")) }}
{{- $repository := ternary .image.repository (printf "%s/%s" (trimSuffix "/" $registry) .image.repository) (or $named (not $registry)) }}
{{- if .image.digest }}
{{- printf "%s@%s" $repository .image.digest }}
{{- else }}
{{- printf "%s:%s" $repository (default .ctx.Chart.AppVersion .image.tag) }}
{{- end }}
{{- end }}

{{/* imagePullSecrets of every pod: global.imagePullSecrets, then imagePullSecrets; each an object {name: ...} or a plain name. Empty renders nothing. */}}
{{- define "virtgate.imagePullSecrets" -}}
{{- $secrets := concat ((.Values.global).imagePullSecrets | default list) (.Values.imagePullSecrets | default list) }}
{{- if $secrets }}
imagePullSecrets:
{{- range $secrets }}
  - name: {{ if kindIs "string" . }}{{ . | quote }}{{ else }}{{ .name | quote }}{{ end }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Seconds in a duration as the programs read it (values.schema.json's pattern): a number, then ms,
s, m, h or d; a bare number is seconds. Helm has no duration parser. Whole seconds print as an
integer, so a PromQL threshold reads 1800, not 1.8e+03.
*/}}
{{- define "virtgate.durationSeconds" -}}
{{- $number := regexFind "^[0-9]+(\\.[0-9]+)?" . }}
{{- $unit := trimPrefix $number . }}
{{- $factors := dict "ms" 0.001 "s" 1 "" 1 "m" 60 "h" 3600 "d" 86400 }}
{{- if or (not $number) (not (hasKey $factors $unit)) }}
{{- fail (printf "%q is not a duration such as 30s, 5m, 1h or 2d" .) }}
{{- end }}
{{- $seconds := mulf (float64 $number) (get $factors $unit) }}
{{- if eq $seconds (floor $seconds) }}{{ int64 $seconds }}{{ else }}{{ $seconds }}{{ end }}
{{- end }}

{{/* The hardened container securityContext of the prune Job and the test Pod (Pod Security `restricted`). */}}
{{- define "virtgate.restrictedContainerSecurityContext" -}}
runAsNonRoot: true
readOnlyRootFilesystem: true
allowPrivilegeEscalation: false
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "virtgate.restrictedPodSecurityContext" -}}
runAsNonRoot: true
# The images' `node` user (uid 1000), numeric so the kubelet can verify runAsNonRoot.
runAsUser: 1000
runAsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* Checks a schema cannot express, with messages that say what to do. Included by every workload template. */}}
{{- define "virtgate.validate" -}}
{{- if regexMatch "(^|\\.)(kubevirt\\.io|kubernetes\\.io|k8s\\.io)$" .Values.prefix }}
{{- fail (printf "prefix %q: virtgate never writes under kubevirt.io, kubernetes.io or k8s.io (KubeVirt's node-labeller deletes labels under its prefixes); choose your own domain" .Values.prefix) }}
{{- end }}
{{- if and .Values.namespace.create .Values.namespaceOverride }}
{{- fail "namespace.create and namespaceOverride exclude each other: namespace.create makes the chart create and own namespace.name; namespaceOverride names a namespace you own" }}
{{- end }}
{{- /* The chart must never own a namespace it did not create: helm would delete it, and everything in it, on uninstall. */}}
{{- if and .Values.namespace.create (eq .Values.namespace.name .Release.Namespace) }}
{{- fail (printf "namespace.create with namespace.name %q, the release namespace: the chart would take ownership of a namespace you created (and delete it on uninstall). Leave namespace.create false to install into it" .Release.Namespace) }}
{{- end }}
{{- end }}

{{/* The aggregator's in-cluster base URL, through its Service. */}}
{{- define "virtgate.aggregator.url" -}}
{{- printf "http://%s-aggregator.%s.svc:%v" (include "virtgate.fullname" .) (include "virtgate.namespace" .) .Values.aggregator.service.port }}
{{- end }}

{{- define "virtgate.test.serviceAccountName" -}}
{{- printf "%s-test" (include "virtgate.fullname" .) }}
{{- end }}
