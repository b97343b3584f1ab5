// k8s-check builds every kustomize overlay it is given and checks what comes
// out, offline, the way a cluster would see it:
//
//   - each object is decoded strictly against the upstream Kubernetes API
//     types (k8s.io/api through client-go's scheme): an unknown field, a
//     wrong type or a kind the scheme does not know fails;
//   - then the operational rules of this project (rules.go): probes,
//     resources, non-root with a read-only root filesystem, a
//     PodDisruptionBudget where more than one replica runs, metrics scrape
//     annotations, and NetworkPolicies under which only the gateway (and the
//     services that call each other) reach the services and only the
//     services reach their stores.
//
// Usage: k8s-check <kustomization dir>...   (exit 1 with every finding listed)
package main

import (
	"fmt"
	"os"
	"sort"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: k8s-check <kustomization dir>...")
		os.Exit(2)
	}
	failed := false
	for _, dir := range os.Args[1:] {
		findings, count, err := checkOverlay(dir)
		if err != nil {
			fmt.Printf("FAIL %s: %v\n", dir, err)
			failed = true
			continue
		}
		if len(findings) > 0 {
			failed = true
			sort.Strings(findings)
			for _, f := range findings {
				fmt.Printf("FAIL %s: %s\n", dir, f)
			}
			continue
		}
		fmt.Printf("ok   %s: %d objects\n", dir, count)
	}
	if failed {
		os.Exit(1)
	}
}

// checkOverlay runs `kustomize build dir`, decodes every object strictly and
// applies the rules. err is a build failure; findings are everything else.
func checkOverlay(dir string) ([]string, int, error) {
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	resources, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return nil, 0, fmt.Errorf("kustomize build: %w", err)
	}
	strict := json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme.Scheme, scheme.Scheme,
		json.SerializerOptions{Yaml: true, Strict: true})
	var findings []string
	var objects []runtime.Object
	for _, res := range resources.Resources() {
		yaml, err := res.AsYAML()
		if err != nil {
			findings = append(findings, fmt.Sprintf("%s: %v", res.CurId(), err))
			continue
		}
		obj, gvk, err := strict.Decode(yaml, nil, nil)
		if err != nil {
			name := res.CurId().String()
			if gvk != nil {
				name = gvk.Kind + " " + res.GetName()
			}
			findings = append(findings, fmt.Sprintf("%s does not decode strictly: %v", name, err))
			continue
		}
		objects = append(objects, obj)
	}
	findings = append(findings, checkRules(objects)...)
	return findings, len(objects), nil
}
