package main

import (
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
)

// The label that says what a workload is: the public entry point, a
// service of the system, or one of its stores (MongoDB, NATS, Redis).
const componentLabel = "app.kubernetes.io/component"

const (
	gateway = "gateway"
	backend = "backend"
	store   = "infra"
)

type inventory struct {
	deployments []*appsv1.Deployment
	pdbs        []*policyv1.PodDisruptionBudget
	hpas        []*autoscalingv2.HorizontalPodAutoscaler
	policies    []*networkingv1.NetworkPolicy
}

func checkRules(objects []runtime.Object) []string {
	var inv inventory
	for _, obj := range objects {
		switch o := obj.(type) {
		case *appsv1.Deployment:
			inv.deployments = append(inv.deployments, o)
		case *policyv1.PodDisruptionBudget:
			inv.pdbs = append(inv.pdbs, o)
		case *autoscalingv2.HorizontalPodAutoscaler:
			inv.hpas = append(inv.hpas, o)
		case *networkingv1.NetworkPolicy:
			inv.policies = append(inv.policies, o)
		}
	}
	var findings []string
	for _, d := range inv.deployments {
		findings = append(findings, checkPodSpec(d)...)
		findings = append(findings, checkMetrics(d)...)
		findings = append(findings, checkGracePeriod(d)...)
		findings = append(findings, checkDisruptionBudget(d, &inv)...)
	}
	findings = append(findings, checkNetwork(&inv)...)
	return findings
}

func component(d *appsv1.Deployment) string {
	return d.Spec.Template.Labels[componentLabel]
}

// checkPodSpec: probes, resources, non-root and a read-only root filesystem,
// for every container of every Deployment (the stores of the local overlay
// included).
func checkPodSpec(d *appsv1.Deployment) []string {
	var out []string
	spec := d.Spec.Template.Spec
	podNonRoot := spec.SecurityContext != nil && spec.SecurityContext.RunAsNonRoot != nil && *spec.SecurityContext.RunAsNonRoot
	podUser := (*int64)(nil)
	if spec.SecurityContext != nil {
		podUser = spec.SecurityContext.RunAsUser
	}
	for _, c := range spec.Containers {
		where := fmt.Sprintf("Deployment %s container %s", d.Name, c.Name)
		if c.ReadinessProbe == nil {
			out = append(out, where+": no readinessProbe")
		}
		if c.LivenessProbe == nil {
			out = append(out, where+": no livenessProbe")
		}
		for _, p := range []*corev1.Probe{c.StartupProbe, c.ReadinessProbe, c.LivenessProbe} {
			if p != nil && p.HTTPGet != nil && !hasPort(c, p.HTTPGet.Port.String()) {
				out = append(out, fmt.Sprintf("%s: a probe uses port %s, which the container does not declare", where, p.HTTPGet.Port.String()))
			}
		}
		for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			if _, ok := c.Resources.Requests[r]; !ok {
				out = append(out, fmt.Sprintf("%s: no %s request", where, r))
			}
		}
		if _, ok := c.Resources.Limits[corev1.ResourceMemory]; !ok {
			out = append(out, where+": no memory limit")
		}
		sc := c.SecurityContext
		nonRoot := podNonRoot
		user := podUser
		if sc != nil && sc.RunAsNonRoot != nil {
			nonRoot = *sc.RunAsNonRoot
		}
		if sc != nil && sc.RunAsUser != nil {
			user = sc.RunAsUser
		}
		if !nonRoot {
			out = append(out, where+": does not set runAsNonRoot: true")
		}
		if user != nil && *user == 0 {
			out = append(out, where+": runs as uid 0")
		}
		if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			out = append(out, where+": root filesystem is not read-only")
		}
		if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
			out = append(out, where+": allows privilege escalation")
		}
	}
	return out
}

func hasPort(c corev1.Container, port string) bool {
	for _, p := range c.Ports {
		if p.Name == port || strconv.Itoa(int(p.ContainerPort)) == port {
			return true
		}
	}
	return false
}

func containerPort(c corev1.Container, name string) (int32, bool) {
	for _, p := range c.Ports {
		if p.Name == name {
			return p.ContainerPort, true
		}
	}
	return 0, false
}

// checkMetrics: every app of the system is scraped by Prometheus through the
// pod annotations, on its METRICS_PORT, declared as the container port
// "metrics".
func checkMetrics(d *appsv1.Deployment) []string {
	kind := component(d)
	if kind != gateway && kind != backend {
		return nil
	}
	var out []string
	where := "Deployment " + d.Name
	ann := d.Spec.Template.Annotations
	if ann["prometheus.io/scrape"] != "true" {
		out = append(out, where+`: pod template lacks annotation prometheus.io/scrape: "true"`)
	}
	if ann["prometheus.io/path"] != "/metrics" {
		out = append(out, where+`: pod template lacks annotation prometheus.io/path: /metrics`)
	}
	if len(d.Spec.Template.Spec.Containers) == 0 {
		return append(out, where+": no container")
	}
	c := d.Spec.Template.Spec.Containers[0]
	port, ok := containerPort(c, "metrics")
	if !ok {
		return append(out, where+`: no container port named "metrics"`)
	}
	if ann["prometheus.io/port"] != strconv.Itoa(int(port)) {
		out = append(out, fmt.Sprintf("%s: prometheus.io/port is %q, the metrics port is %d", where, ann["prometheus.io/port"], port))
	}
	env := ""
	for _, e := range c.Env {
		if e.Name == "METRICS_PORT" {
			env = e.Value
		}
	}
	if env != strconv.Itoa(int(port)) {
		out = append(out, fmt.Sprintf("%s: METRICS_PORT is %q, the metrics port is %d", where, env, port))
	}
	return out
}

// checkDisruptionBudget: a workload that runs more than one replica (its own
// count, or its autoscaler's floor) has a PodDisruptionBudget selecting its
// pods that lets a drain go on one pod at a time.
func checkDisruptionBudget(d *appsv1.Deployment, inv *inventory) []string {
	replicas := int32(1)
	if d.Spec.Replicas != nil {
		replicas = *d.Spec.Replicas
	}
	for _, h := range inv.hpas {
		if h.Spec.ScaleTargetRef.Kind == "Deployment" && h.Spec.ScaleTargetRef.Name == d.Name {
			if h.Spec.MinReplicas != nil && *h.Spec.MinReplicas > replicas {
				replicas = *h.Spec.MinReplicas
			}
		}
	}
	if replicas <= 1 {
		return nil
	}
	podLabels := labels.Set(d.Spec.Template.Labels)
	for _, p := range inv.pdbs {
		sel, err := metav1.LabelSelectorAsSelector(p.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(podLabels) {
			continue
		}
		if p.Spec.MaxUnavailable == nil && p.Spec.MinAvailable == nil {
			return []string{fmt.Sprintf("PodDisruptionBudget %s sets neither maxUnavailable nor minAvailable", p.Name)}
		}
		return nil
	}
	return []string{fmt.Sprintf("Deployment %s runs %d replicas but no PodDisruptionBudget selects its pods", d.Name, replicas)}
}

// checkGracePeriod: an app's pod is given time for its preStop pause and
// then its whole graceful stop (SHUTDOWN_GRACE_MS, 15 s unless set) before
// Kubernetes kills it.
func checkGracePeriod(d *appsv1.Deployment) []string {
	kind := component(d)
	if kind != gateway && kind != backend {
		return nil
	}
	spec := d.Spec.Template.Spec
	grace := int64(30)
	if spec.TerminationGracePeriodSeconds != nil {
		grace = *spec.TerminationGracePeriodSeconds
	}
	var out []string
	for _, c := range spec.Containers {
		preStop := int64(0)
		if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Exec != nil {
			cmd := c.Lifecycle.PreStop.Exec.Command
			if len(cmd) == 2 && cmd[0] == "sleep" {
				if n, err := strconv.ParseInt(cmd[1], 10, 64); err == nil {
					preStop = n
				}
			}
		}
		stopMs := int64(15000)
		for _, e := range c.Env {
			if e.Name == "SHUTDOWN_GRACE_MS" {
				if n, err := strconv.ParseInt(e.Value, 10, 64); err == nil {
					stopMs = n
				}
			}
		}
		if need := preStop + (stopMs+999)/1000; grace < need {
			out = append(out, fmt.Sprintf("Deployment %s: terminationGracePeriodSeconds %d is shorter than preStop (%d s) plus SHUTDOWN_GRACE_MS (%d ms)", d.Name, grace, preStop, stopMs))
		}
	}
	return out
}
