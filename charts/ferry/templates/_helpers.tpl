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

{{/* The Secret with each service's database role (keys <service>-username, <service>-password). */}}
{{- define "ferry.dbSecret" -}}
{{- required "database.existingSecret names the Secret with each service's database role" .Values.database.existingSecret -}}
{{- end -}}

{{/* A service's name as an environment variable prefix: transfer-scheduler -> TRANSFER_SCHEDULER. */}}
{{- define "ferry.envName" -}}
{{- . | upper | replace "-" "_" -}}
{{- end -}}

{{/*
Egress rules with link-local addresses taken out of every "anywhere" block when networkPolicy.denyLinkLocalEgress
is on: 169.254.0.0/16 out of 0.0.0.0/0, fe80::/10 and fd00:ec2::254/128 out of ::/0 (cloud metadata services answer
there with the node's credentials). Narrower blocks are used as given. Call with (dict "root" $ "rules" $list).
*/}}
{{- define "ferry.egressRules" -}}
{{- $deny := .root.Values.networkPolicy.denyLinkLocalEgress -}}
{{- $rules := list -}}
{{- range .rules -}}
{{- $rule := deepCopy . -}}
{{- $peers := list -}}
{{- range ($rule.to | default list) -}}
{{- $peer := deepCopy . -}}
{{- if and $deny $peer.ipBlock -}}
{{- $except := $peer.ipBlock.except | default list -}}
{{- if eq $peer.ipBlock.cidr "0.0.0.0/0" -}}
{{- $except = append $except "169.254.0.0/16" -}}
{{- else if eq $peer.ipBlock.cidr "::/0" -}}
{{- $except = concat $except (list "fe80::/10" "fd00:ec2::254/128") -}}
{{- end -}}
{{- if $except -}}
{{- $_ := set $peer.ipBlock "except" (uniq $except) -}}
{{- end -}}
{{- end -}}
{{- $peers = append $peers $peer -}}
{{- end -}}
{{- if $rule.to -}}
{{- $_ := set $rule "to" $peers -}}
{{- end -}}
{{- $rules = append $rules $rule -}}
{{- end -}}
{{- toYaml $rules -}}
{{- end -}}
