package main

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// checkNetwork evaluates the NetworkPolicies' ingress rules the way a
// cluster enforces them, for the pods of the rendered Deployments (one
// namespace):
//
//   - a service of the system (backend) and a store (infra) are isolated
//     (some policy selects them for ingress);
//   - on their ports, the only sources allowed are pods of the gateway or of
//     the services, named by a pod selector that requires one of those
//     components (no rule open to every source, another namespace or an IP
//     range); a service's "metrics" port may also be scraped from another
//     namespace (Prometheus);
//   - and the traffic the system needs still flows: the gateway reaches
//     every service, every app reaches every store, and each metrics port is
//     open to some scraper.
func checkNetwork(inv *inventory) []string {
	var out []string
	apps := []*appsv1.Deployment{}
	for _, d := range inv.deployments {
		if c := component(d); c == gateway || c == backend {
			apps = append(apps, d)
		}
	}
	for _, target := range inv.deployments {
		kind := component(target)
		if kind != backend && kind != store {
			continue
		}
		policies := selecting(inv.policies, target)
		if len(policies) == 0 {
			out = append(out, fmt.Sprintf("Deployment %s: no NetworkPolicy selects its pods for ingress: any pod may reach it", target.Name))
			continue
		}
		for _, c := range target.Spec.Template.Spec.Containers {
			for _, port := range c.Ports {
				where := fmt.Sprintf("Deployment %s port %s (%d)", target.Name, port.Name, port.ContainerPort)
				isMetrics := kind == backend && port.Name == "metrics"
				scraped := false
				for _, p := range policies {
					for _, rule := range p.Spec.Ingress {
						if !coversPort(rule.Ports, port) {
							continue
						}
						if isMetrics {
							scraped = true
							continue
						}
						out = append(out, checkPeers(where, p.Name, rule.From, inv)...)
					}
				}
				if isMetrics && !scraped {
					out = append(out, where+": no NetworkPolicy lets a scraper in")
				}
			}
		}
	}
	// What must still flow.
	for _, target := range inv.deployments {
		kind := component(target)
		for _, c := range target.Spec.Template.Spec.Containers {
			for _, port := range c.Ports {
				if port.Name == "metrics" {
					continue
				}
				for _, source := range apps {
					needed := (kind == backend && component(source) == gateway) || kind == store
					if needed && !allowed(source, target, port, inv.policies) {
						out = append(out, fmt.Sprintf("Deployment %s cannot reach Deployment %s port %s (%d)", source.Name, target.Name, port.Name, port.ContainerPort))
					}
				}
			}
		}
	}
	return out
}

func selects(p *networkingv1.NetworkPolicy, d *appsv1.Deployment) bool {
	sel, err := metav1.LabelSelectorAsSelector(&p.Spec.PodSelector)
	return err == nil && sel.Matches(labels.Set(d.Spec.Template.Labels))
}

// selecting: the policies that isolate the Deployment's pods for ingress.
func selecting(policies []*networkingv1.NetworkPolicy, d *appsv1.Deployment) []*networkingv1.NetworkPolicy {
	var out []*networkingv1.NetworkPolicy
	for _, p := range policies {
		if !selects(p, d) {
			continue
		}
		ingress := len(p.Spec.PolicyTypes) == 0 // unset: Ingress always applies
		for _, t := range p.Spec.PolicyTypes {
			if t == networkingv1.PolicyTypeIngress {
				ingress = true
			}
		}
		if ingress {
			out = append(out, p)
		}
	}
	return out
}

func coversPort(ports []networkingv1.NetworkPolicyPort, port corev1.ContainerPort) bool {
	if len(ports) == 0 {
		return true
	}
	for _, np := range ports {
		protocol := corev1.ProtocolTCP
		if np.Protocol != nil {
			protocol = *np.Protocol
		}
		own := port.Protocol
		if own == "" {
			own = corev1.ProtocolTCP
		}
		if protocol != own {
			continue
		}
		if np.Port == nil {
			return true
		}
		if np.Port.Type == intstr.String {
			if np.Port.StrVal == port.Name {
				return true
			}
			continue
		}
		end := np.Port.IntVal
		if np.EndPort != nil {
			end = *np.EndPort
		}
		if port.ContainerPort >= np.Port.IntVal && port.ContainerPort <= end {
			return true
		}
	}
	return false
}

// checkPeers: the sources a rule admits to a service's or store's port.
func checkPeers(where, policy string, from []networkingv1.NetworkPolicyPeer, inv *inventory) []string {
	if len(from) == 0 {
		return []string{fmt.Sprintf("%s: NetworkPolicy %s admits every source", where, policy)}
	}
	var out []string
	for _, peer := range from {
		switch {
		case peer.IPBlock != nil:
			out = append(out, fmt.Sprintf("%s: NetworkPolicy %s admits an IP range (%s)", where, policy, peer.IPBlock.CIDR))
		case peer.NamespaceSelector != nil:
			out = append(out, fmt.Sprintf("%s: NetworkPolicy %s admits pods of other namespaces", where, policy))
		case peer.PodSelector != nil:
			sel, err := metav1.LabelSelectorAsSelector(peer.PodSelector)
			if err != nil {
				out = append(out, fmt.Sprintf("%s: NetworkPolicy %s: %v", where, policy, err))
				continue
			}
			// The selector itself must require the gateway or a service: a
			// pod labelled otherwise (a store, a debugging pod) is not let in.
			for _, other := range []string{"", store, "other"} {
				probe := labels.Set{}
				if other != "" {
					probe[componentLabel] = other
				}
				if sel.Matches(probe) {
					out = append(out, fmt.Sprintf("%s: NetworkPolicy %s admits pods whose %s is %q", where, policy, componentLabel, other))
					break
				}
			}
			for _, d := range inv.deployments {
				if c := component(d); sel.Matches(labels.Set(d.Spec.Template.Labels)) && c != gateway && c != backend {
					out = append(out, fmt.Sprintf("%s: NetworkPolicy %s admits Deployment %s (%s)", where, policy, d.Name, c))
				}
			}
		}
	}
	return out
}

// allowed: whether a pod of source may open a connection to target's port.
func allowed(source, target *appsv1.Deployment, port corev1.ContainerPort, policies []*networkingv1.NetworkPolicy) bool {
	isolating := selecting(policies, target)
	if len(isolating) == 0 {
		return true
	}
	sourceLabels := labels.Set(source.Spec.Template.Labels)
	for _, p := range isolating {
		for _, rule := range p.Spec.Ingress {
			if !coversPort(rule.Ports, port) {
				continue
			}
			if len(rule.From) == 0 {
				return true
			}
			for _, peer := range rule.From {
				if peer.PodSelector == nil || peer.NamespaceSelector != nil || peer.IPBlock != nil {
					continue
				}
				sel, err := metav1.LabelSelectorAsSelector(peer.PodSelector)
				if err == nil && sel.Matches(sourceLabels) {
					return true
				}
			}
		}
	}
	return false
}
