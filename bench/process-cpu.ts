import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of this process and of DynamoDB Local (the `java` child the bench started), from
 * /proc (Linux; elsewhere DynamoDB Local's figure is null). Where a measurement's time goes:
 * DynamoDB Local's work, or ours (the functions, the SDK, the bench itself).
 */
const TICKS_PER_SECOND = 100;

/** utime + stime of a process, in seconds; undefined when it cannot be read. */
function cpuOfPid(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

const pids = new Map<string, number | null>();

/** The pid of the DynamoDB Local at `endpoint`: a `java` child of this process started with `-port <its port>`. */
function dynamoLocalPid(endpoint: string): number | null {
  const known = pids.get(endpoint);
  if (known !== undefined) return known;
  const port = new URL(endpoint).port;
  let found: number | null = null;
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
        if (name === 'java' && parent === process.pid && args[args.indexOf('-port') + 1] === port) found = Number(entry);
      } catch {
        // a process that ended while listed
      }
    }
  } catch {
    // no /proc
  }
  pids.set(endpoint, found);
  return found;
}

export interface CpuSample {
  readonly dynamoLocal: number | undefined;
  readonly node: number;
}

/** CPU seconds so far of the DynamoDB Local at `endpoint` and of this process. */
export function cpuNow(endpoint: string): CpuSample {
  const pid = dynamoLocalPid(endpoint);
  const usage = process.cpuUsage();
  return { dynamoLocal: pid === null ? undefined : cpuOfPid(pid), node: (usage.user + usage.system) / 1e6 };
}

/** CPU seconds spent between two samples, by DynamoDB Local and by this process. */
export function cpuSince(start: CpuSample, endpoint: string): { readonly dynamoLocal: number | undefined; readonly node: number } {
  const end = cpuNow(endpoint);
  return {
    dynamoLocal: start.dynamoLocal === undefined || end.dynamoLocal === undefined ? undefined : end.dynamoLocal - start.dynamoLocal,
    node: end.node - start.node,
  };
}
