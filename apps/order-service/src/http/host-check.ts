import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { errorBodyIn, hostCheck, misdirectedRequest, WILDCARD_BINDS } from '@oversell/contracts';
import { hostname } from 'node:os';
import type { AppConfig } from '../config/configuration';
import { errorLocale } from './request-locale';

/**
 * DNS rebinding, at each instance as at the gateway: the instances' own ports are as reachable from a
 * visitor's browser as the gateway's, and on loopback their admin actions need no token. Answered:
 * loopback names, any IP address (the run worker and Prometheus reach an instance by address), the
 * instance's own names (its bind host, its host name when bound to every interface, INSTANCE_URL's) and
 * the lab's public hosts (LAB_PUBLIC_HOST, which a reverse proxy in front passes on); anything else 421.
 */
export function useHostCheck(app: NestFastifyApplication, { host, instanceUrl, publicHosts }: Pick<AppConfig, 'host' | 'instanceUrl' | 'publicHosts'>): void {
  const own = [...publicHosts, new URL(instanceUrl).hostname, ...(WILDCARD_BINDS.includes(host) ? [hostname()] : [host])];
  const allowed = hostCheck(own, { anyAddress: true });
  app
    .getHttpAdapter()
    .getInstance()
    // A callback hook: every request passes here (an answer sent from it ends the request; done is not called).
    .addHook('onRequest', (request, reply, done) => {
      if (allowed(request.headers.host)) return done();
      void reply.code(421).send(errorBodyIn(misdirectedRequest(request.headers.host), errorLocale(request)));
    });
}
