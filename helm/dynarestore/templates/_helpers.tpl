{{/* The chart's name. */}}
{{- define "dynarestore.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* A service's full name: <release>-<service>, or <service> when the release is named like the chart. */}}
{{- define "dynarestore.fullname" -}}
{{- $root := index . 0 -}}{{- $service := index . 1 -}}
{{- if eq $root.Release.Name $root.Chart.Name -}}
{{- $service | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" $root.Release.Name $service | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels every object carries. */}}
{{- define "dynarestore.labels" -}}
{{- $root := index . 0 -}}{{- $service := index . 1 -}}
helm.sh/chart: {{ printf "%s-%s" $root.Chart.Name $root.Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ $service }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/part-of: dynarestore
app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
{{- end -}}

{{/* Labels that select a service's pods. */}}
{{- define "dynarestore.selectorLabels" -}}
{{- $root := index . 0 -}}{{- $service := index . 1 -}}
app.kubernetes.io/name: {{ $service }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
{{- end -}}

{{/* A service's image. */}}
{{- define "dynarestore.image" -}}
{{- $root := index . 0 -}}{{- $service := index . 1 -}}
{{- $tag := default $root.Chart.AppVersion $root.Values.image.tag -}}
{{- if $root.Values.image.registry -}}
{{- printf "%s/%s/%s:%s" $root.Values.image.registry $root.Values.image.repository $service $tag -}}
{{- else -}}
{{- printf "%s/%s:%s" $root.Values.image.repository $service $tag -}}
{{- end -}}
{{- end -}}

{{/* The autoscaler's upper bound: what is asked, at most the partitions the group shares. */}}
{{- define "dynarestore.maxReplicas" -}}
{{- $asked := index . 0 -}}{{- $partitions := index . 1 -}}
{{- if gt (int $asked) (int $partitions) -}}{{ $partitions }}{{- else -}}{{ $asked }}{{- end -}}
{{- end -}}
