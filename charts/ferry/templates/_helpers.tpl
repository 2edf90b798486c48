{{/* Common labels of every object. */}}
{{- define "ferry.labels" -}}
app.kubernetes.io/part-of: ferry
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* Selector labels of one service; call with (dict "root" $ "svc" $svc). */}}
{{- define "ferry.selector" -}}
app.kubernetes.io/name: {{ .svc.name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end -}}

{{/* The object name of one service. */}}
{{- define "ferry.fullname" -}}
{{- printf "%s-%s" .root.Release.Name .svc.name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The object name of a service given only its service name; call with (dict "root" $ "name" "rate-aggregator"). */}}
{{- define "ferry.nameOf" -}}
{{- printf "%s-%s" .root.Release.Name .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "ferry.image" -}}
{{- $img := .root.Values.image -}}
{{- $tag := default .root.Chart.AppVersion $img.tag -}}
{{- $repo := printf "%s/%s" $img.prefix .svc.name -}}
{{- if $img.registry }}{{ $repo = printf "%s/%s" $img.registry $repo }}{{ end -}}
{{- printf "%s:%s-%s" $repo $tag $img.variant -}}
{{- end -}}

{{- define "ferry.dbHost" -}}
{{- if .Values.postgresql.enabled -}}
{{- printf "%s-postgresql" .Release.Name -}}
{{- else -}}
{{- required "database.host is required when postgresql.enabled is false" .Values.database.host -}}
{{- end -}}
{{- end -}}

{{/* Environment variable that carries a service's own token (see the services' configuration). */}}
{{- define "ferry.tokenVariable" -}}
{{- $prefixes := dict "transfer-scheduler" "SCHEDULER" "tcp-profiles" "PROFILES" "handle-resolver" "RESOLVER" "rate-aggregator" "AGGREGATOR" -}}
{{- printf "FERRY_%s_SERVICE_TOKEN" (get $prefixes .) -}}
{{- end -}}

{{/* Client URL variable and value for a called service. */}}
{{- define "ferry.clientVariable" -}}
{{- $prefixes := dict "transfer-scheduler" "SCHEDULER" "tcp-profiles" "PROFILES" "handle-resolver" "RESOLVER" "rate-aggregator" "AGGREGATOR" -}}
{{- printf "FERRY_CLIENTS_%s_URL" (get $prefixes .) -}}
{{- end -}}
