import { VisuallyHidden } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { formatAmount } from './format';

/** A chart's points: one row per point, its label under `dataKey` and one number per series name. */
export type ChartPoint = Record<string, string | number>;

/**
 * Keeps every group of a drawing's SVG out of the tab order, as they appear.
 * Chromium makes an SVG element focusable once it has focus event listeners,
 * and React listens on every portal container: Recharts 3 portals each
 * z-index layer (grid, lines, axes, dots, labels…) into a `<g>`, so each
 * chart added about seven unnamed stops of Tab.
 */
function useNoTabStopsIn(drawing: RefObject<HTMLDivElement | null>): void {
  useEffect(() => {
    const root = drawing.current;
    if (!root) return undefined;
    const untab = () => root.querySelectorAll('svg g:not([tabindex])').forEach((g) => g.setAttribute('tabindex', '-1'));
    untab();
    // Only added nodes are watched: setting the attribute does not call this again.
    const observer = new MutationObserver(untab);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [drawing]);
}

/**
 * A chart read two ways: the drawing is for the eye, and the same figures
 * are a table for screen readers. The drawing is hidden from assistive
 * technology and keeps nothing in the tab order: its chart must be given
 * `accessibilityLayer={false}` (Recharts 3 turns it on by default, making
 * the SVG a tab stop with no name whose arrow keys only move the tooltip),
 * and its groups are taken out (useNoTabStopsIn).
 */
export function ChartFigure({
  label,
  dataKey,
  series,
  data,
  children,
}: {
  /** What the chart shows; its accessible name and the table's caption. */
  label: string;
  dataKey: string;
  series: ReadonlyArray<{ name: string }>;
  data: readonly ChartPoint[];
  /** The chart itself, with `accessibilityLayer={false}`. */
  children: ReactNode;
}) {
  const drawing = useRef<HTMLDivElement>(null);
  useNoTabStopsIn(drawing);
  return (
    <figure aria-label={label} style={{ margin: 0 }}>
      <div aria-hidden="true" ref={drawing}>
        {children}
      </div>
      {/* Hidden the way VisuallyHidden hides (its span may not hold a table). */}
      <table className={VisuallyHidden.classes.root}>
        <caption>{label}</caption>
        <thead>
          <tr>
            <th scope="col">{dataKey === 'date' ? 'Day' : dataKey}</th>
            {series.map((s) => (
              <th key={s.name} scope="col">
                {s.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.map((point) => (
            <tr key={String(point[dataKey])}>
              <th scope="row">{point[dataKey]}</th>
              {series.map((s) => (
                <td key={s.name}>{typeof point[s.name] === 'number' ? formatAmount(point[s.name] as number) : (point[s.name] ?? '—')}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** Dash patterns of a chart's lines, in series order: the first solid. */
const DASHES = [undefined, '8 4', '2 3', '12 3 3 3'] as const;

/**
 * Lines that stay apart when their values are equal (two series of the same
 * numbers would otherwise draw one over the other, and one would vanish):
 * each line is dashed its own way, and each is drawn thinner than the one
 * before it, which stays visible around it. Spread onto a LineChart.
 */
export function distinctLines<S extends { name: string }>(series: readonly S[], motion: ChartMotion = { isAnimationActive: true }) {
  const widths = new Map(series.map((s, i) => [s.name, Math.max(1.5, 4 - i)]));
  return {
    series: series.map((s, i) => ({ ...s, strokeDasharray: DASHES[i % DASHES.length] })),
    lineProps: (line: { name: string }) => ({ strokeWidth: widths.get(line.name), ...motion }),
  };
}

/** Whether a chart draws its series in over a moment (Recharts' isAnimationActive): spread into lineProps, barProps or areaProps. */
export interface ChartMotion {
  isAnimationActive: boolean;
}

/**
 * Charts drawn at once, without their drawing-in animation, for a reader who
 * asked the system for reduced motion (WCAG 2.3.3); and so a browser test or
 * a screenshot sees the finished chart without waiting for it.
 */
export function useChartMotion(): ChartMotion {
  return { isAnimationActive: !useReducedMotion() };
}
