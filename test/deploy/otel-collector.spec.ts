import { describe, expect, it } from '@jest/globals';
import { appServices, interpolate, readCompose, readYaml, serviceEnv } from './deploy-files.js';

interface CollectorConfig {
  receivers: Record<string, { protocols?: Record<string, { endpoint?: string } | null> } | null>;
  processors?: Record<string, unknown>;
  exporters: Record<string, { endpoint?: string; tls?: { insecure?: boolean } } | null>;
  extensions?: Record<string, unknown>;
  service: {
    extensions?: string[];
    pipelines: Record<string, { receivers: string[]; processors?: string[]; exporters: string[] }>;
  };
}

const config = readYaml<CollectorConfig>('deploy/otel-collector.yaml');
const traces = config.service.pipelines['traces'];
/** Component ids are `type[/name]`. */
const typeOf = (id: string): string => id.split('/')[0]!;

describe('deploy/otel-collector.yaml', () => {
  it('has a traces pipeline from the OTLP receiver to an exporter', () => {
    expect(traces).toBeDefined();
    expect(traces!.receivers).toContain('otlp');
    expect(traces!.exporters.length).toBeGreaterThan(0);
  });

  it('defines every component a pipeline or the service names', () => {
    for (const [name, pipeline] of Object.entries(config.service.pipelines)) {
      for (const id of pipeline.receivers)
        expect({ name, id, defined: id in config.receivers }).toMatchObject({ defined: true });
      for (const id of pipeline.processors ?? [])
        expect({ name, id, defined: id in (config.processors ?? {}) }).toMatchObject({ defined: true });
      for (const id of pipeline.exporters)
        expect({ name, id, defined: id in config.exporters }).toMatchObject({ defined: true });
    }
    for (const id of config.service.extensions ?? []) expect(config.extensions ?? {}).toHaveProperty([id]);
  });

  it('listens for OTLP on all interfaces (the collector defaults to localhost, unreachable from the apps)', () => {
    const protocols = config.receivers['otlp']?.protocols ?? {};
    expect(protocols['grpc']?.endpoint).toBe('0.0.0.0:4317');
    expect(protocols['http']?.endpoint).toBe('0.0.0.0:4318');
    // The apps export OTLP/HTTP to the collector service, on the port the receiver opens.
    const services = readCompose().services;
    for (const name of appServices) {
      const endpoint = new URL(interpolate(serviceEnv(services[name]!).OTEL_EXPORTER_OTLP_ENDPOINT!));
      expect({ name, host: endpoint.hostname, port: endpoint.port }).toEqual({
        name,
        host: 'otel-collector',
        port: '4318',
      });
    }
    expect(services).toHaveProperty(['otel-collector']);
  });

  it('exports traces over OTLP/gRPC to the compose trace viewer', () => {
    const services = readCompose().services;
    const otlpExporters = traces!.exporters.filter((id) => ['otlp_grpc', 'otlp'].includes(typeOf(id)));
    expect(otlpExporters.length).toBeGreaterThan(0);
    for (const id of otlpExporters) {
      const exporter = config.exporters[id]!;
      const [host, port] = (exporter.endpoint ?? '').split(':');
      expect(services).toHaveProperty([host!]);
      expect(services[host!]!.image).toMatch(/^jaegertracing\/(jaeger|all-in-one):/);
      expect(port).toBe('4317');
      // Inside the compose network, without TLS.
      expect(exporter.tls?.insecure).toBe(true);
    }
  });

  it('limits memory before batching, so a burst of spans cannot take the collector down', () => {
    expect(traces!.processors?.[0]).toBe('memory_limiter');
    expect(traces!.processors).toContain('batch');
  });
});
