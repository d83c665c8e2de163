import { readFileSync } from 'node:fs';
import { renderEdgeConfig, type EdgeConfig } from './edge';
import { NGINX_TEMPLATE } from './paths';

const TEMPLATE = readFileSync(NGINX_TEMPLATE, 'utf8');
const CONFIG: EdgeConfig = { listen: '127.0.0.1:8080', upstreams: ['127.0.0.1:3001', '127.0.0.1:3002'], root: '/srv/dash', hostNames: ['Lab.Example.org', '[fd00::7]'], dir: '/tmp/edge', generation: 3, countAnswers: false };

describe("the lab's rendering of compose's nginx template", () => {
  it('puts the live instances, the port, the dashboard and the public names where compose has its own', () => {
    const { server } = renderEdgeConfig(TEMPLATE, CONFIG);
    expect(server).toContain('  server 127.0.0.1:3001;\n  server 127.0.0.1:3002;\n');
    expect(server).toContain('listen 127.0.0.1:8080;');
    expect(server).toContain('root /srv/dash;');
    expect(server).toContain('  "lab.example.org" 1;\n  "[fd00::7]" 1;\n');
    expect(server).not.toMatch(/order-service:3000|listen 80;|root \/usr\/share\/nginx|^ *\$\{LAB_PUBLIC_HOST\} 1;/m);
  });

  it('points the upstream at its own 503 while no instance is up (nginx needs one server)', () => {
    const { server, main } = renderEdgeConfig(TEMPLATE, { ...CONFIG, upstreams: [] });
    expect(server).toContain('server unix:/tmp/edge/control.sock;');
    expect(main).toContain('listen unix:/tmp/edge/control.sock;');
    expect(main).toMatch(/return 503 '\{"statusCode":503,"error":"store_unavailable"/);
  });

  it('logs the forwarded 2xx answers only when asked to count them', () => {
    expect(renderEdgeConfig(TEMPLATE, CONFIG).main).toContain('access_log off;');
    expect(renderEdgeConfig(TEMPLATE, CONFIG).main).not.toContain('notice');
    const counting = renderEdgeConfig(TEMPLATE, { ...CONFIG, countAnswers: true }).main;
    expect(counting).toContain('access_log /tmp/edge/answers.log lab_answers buffer=64k if=$lab_counted;');
    // The workers' reopen, takeAnswers' witness that the buffer was written out.
    expect(counting).toContain('error_log /tmp/edge/notice.log notice;');
  });

  it('refuses a template that lost a line it replaces, rather than serve compose’s values', () => {
    expect(() => renderEdgeConfig(TEMPLATE.replace('listen 80;', 'listen 81;'), CONFIG)).toThrow(/no longer has "listen 80;"/);
  });
});
