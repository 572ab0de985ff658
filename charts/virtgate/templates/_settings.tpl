{{- /*
Generated from the programs' settings tables by `npm run generate:settings`: edit the tables
(agent/config.ts, aggregator/config.ts), not this file. Each definition renders the container
arguments of the chart values that feed a program setting, one "- --flag=value" per line.
*/ -}}
{{- define "virtgate.agent.settingArgs" -}}
- {{ printf "--prefix=%v" .Values.prefix | quote }}
- {{ printf "--interval=%v" .Values.agent.interval | quote }}
- {{ printf "--jitter=%v" .Values.agent.jitter | quote }}
- {{ printf "--heartbeat=%v" .Values.agent.heartbeat | quote }}
- {{ printf "--port=%v" .Values.agent.port | quote }}
- {{ printf "--request-timeout=%v" .Values.agent.requestTimeout | quote }}
- {{ printf "--publish-failure-threshold=%v" .Values.agent.publishFailureThreshold | quote }}
{{- if .Values.agent.allowEmulation }}
- --allow-emulation
{{- end }}
- {{ printf "--min-kernel=%v" .Values.agent.minKernel | quote }}
{{- if not .Values.agent.virtHostValidate.enabled }}
- --no-vhv
{{- end }}
- {{ printf "--vhv-timeout=%v" .Values.agent.virtHostValidate.timeout | quote }}
{{- if not .Values.agent.kvmRun }}
- --no-kvm-run
{{- end }}
- {{ printf "--taint-policy=%v" .Values.agent.taint.policy | quote }}
{{- if ne (toString .Values.agent.taint.poolSelector) "" }}
- {{ printf "--taint-pool-selector=%v" .Values.agent.taint.poolSelector | quote }}
{{- end }}
- {{ printf "--taint-effect=%v" .Values.agent.taint.effect | quote }}
{{- if .Values.agent.taint.allowNoExecute }}
- --allow-no-execute
{{- end }}
- {{ printf "--taint-max-share=%v" .Values.agent.taint.maxShare | quote }}
{{- if ne (toString .Values.agent.taint.bootstrapKey) "" }}
- {{ printf "--bootstrap-taint-key=%v" .Values.agent.taint.bootstrapKey | quote }}
{{- end }}
- {{ printf "--watch-timeout=%v" .Values.agent.watch.timeout | quote }}
- {{ printf "--watch-stale-after=%v" .Values.agent.watch.staleAfter | quote }}
- {{ printf "--watch-backoff-base=%v" .Values.agent.watch.backoffBase | quote }}
- {{ printf "--watch-backoff-max=%v" .Values.agent.watch.backoffMax | quote }}
- {{ printf "--shutdown-grace=%v" .Values.agent.shutdownGrace | quote }}
- {{ printf "--log-level=%v" .Values.agent.logLevel | quote }}
{{- end }}
{{- define "virtgate.aggregator.settingArgs" -}}
- {{ printf "--port=%v" .Values.aggregator.port | quote }}
- {{ printf "--prefix=%v" .Values.prefix | quote }}
- {{ printf "--stale-after=%v" .Values.aggregator.staleAfter | quote }}
- {{ printf "--min-ready=%v" .Values.aggregator.minReady | quote }}
- {{ printf "--eol-warn-days=%v" .Values.aggregator.eolWarnDays | quote }}
- {{ printf "--data-max-age-days=%v" .Values.aggregator.dataMaxAgeDays | quote }}
- {{ printf "--request-timeout=%v" .Values.aggregator.requestTimeout | quote }}
- {{ printf "--shutdown-drain=%v" .Values.aggregator.shutdownDrain | quote }}
{{- if not .Values.aggregator.perNodeMetrics }}
- --no-per-node-metrics
{{- end }}
- {{ printf "--watch-timeout=%v" .Values.aggregator.watch.timeout | quote }}
- {{ printf "--watch-stale-after=%v" .Values.aggregator.watch.staleAfter | quote }}
- {{ printf "--watch-backoff-base=%v" .Values.aggregator.watch.backoffBase | quote }}
- {{ printf "--watch-backoff-max=%v" .Values.aggregator.watch.backoffMax | quote }}
- {{ printf "--log-level=%v" .Values.aggregator.logLevel | quote }}
{{- end }}
