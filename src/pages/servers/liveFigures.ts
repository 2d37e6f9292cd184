import type { Report } from '../../../resources/agent/protocol';
import { formatBytes, formatPercent, percentOf } from './format';

/** One live figure of a server card: its words and, for a share of a total, its gauge. */
export interface LiveFigure {
  id: 'load' | 'memory' | 'disk';
  label: string;
  value: string;
  /** 0-100, for memory and disk. */
  gauge?: number;
}

/**
 * The dashboard card's live figures from the agent's latest report: load over one minute
 * (against the cores), memory and the root disk used of their totals. Pure, for a unit test.
 */
export function liveFigures(report: Report): LiveFigure[] {
  const memory = percentOf(report.memory.used, report.memory.total);
  const disk = percentOf(report.disk.used, report.disk.total);
  return [
    {
      id: 'load',
      label: 'Load',
      value: `${report.load[0].toFixed(2)} on ${report.cpu.cores} ${report.cpu.cores === 1 ? 'core' : 'cores'}`,
    },
    {
      id: 'memory',
      label: 'Memory',
      value: `${formatPercent(memory)} of ${formatBytes(report.memory.total, 1)}`,
      gauge: memory,
    },
    {
      id: 'disk',
      label: 'Disk',
      value: `${formatPercent(disk)} of ${formatBytes(report.disk.total, 1)}`,
      gauge: disk,
    },
  ];
}
