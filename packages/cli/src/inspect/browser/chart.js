// State size per step, drawn by uPlot on a canvas: where a state starts to balloon.
import uPlot from 'uplot';
import { html, useEffect, useRef } from './preact.js';

/** `entries` oldest first: [{ id, bytes }]. Clicking the chart selects the nearest step. */
export function SizeChart({ entries, selected, onSelect }) {
  const box = useRef(null);
  const plot = useRef(null);
  const latest = useRef({ entries, onSelect });
  latest.current = { entries, onSelect };
  useEffect(() => {
    const xs = entries.map((_, i) => i + 1);
    const ys = entries.map((entry) => entry.bytes);
    const width = Math.max(240, box.current.clientWidth || 480);
    if (plot.current) plot.current.destroy();
    plot.current = new uPlot(
      {
        width,
        height: 140,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: false } },
        // Whole steps only on the x axis.
        axes: [{ label: 'step (oldest → latest)', size: 34, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000] }, { label: 'bytes', size: 60 }],
        series: [{}, { label: 'bytes', stroke: '#2563eb', fill: 'rgba(37,99,235,0.12)', width: 1.5, points: { show: entries.length <= 200 } }],
      },
      [xs, ys],
      box.current,
    );
    const over = plot.current.over;
    const click = () => {
      const idx = plot.current?.cursor.idx;
      const entry = idx === null || idx === undefined ? undefined : latest.current.entries[idx];
      if (entry) latest.current.onSelect(entry.id);
    };
    over.addEventListener('click', click);
    return () => {
      over.removeEventListener('click', click);
    };
  }, [entries]);
  useEffect(() => () => plot.current?.destroy(), []);
  const at = entries.findIndex((entry) => entry.id === selected);
  return html`<div class="chart" data-points=${entries.length} data-selected-index=${at}><div ref=${box}></div></div>`;
}
