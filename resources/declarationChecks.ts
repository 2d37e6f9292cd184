/**
 * What `defineResource` refuses, at import time: a declaration whose paths, parameters, guards
 * or query ids the platform could not mount safely (an account route without `{uid}`, a child
 * without a kind, a panel route a user could call, a query id its query lacks).
 */
import {
  type ActionDef,
  type OperationDef,
  type ResourceDef,
  bodyOf,
  declaredRoutes,
  queryOf,
} from './declaration';
import { z } from 'zod';
import { APP_PARAM, TENANT_PARAMS, appIn, templateParams } from './templates';

export function checkDeclaration(def: ResourceDef): void {
  for (const [op, opDef] of Object.entries(
    def.ops as unknown as Record<string, OperationDef | undefined>,
  )) {
    if (!opDef) continue;
    const template = op === 'list' || op === 'create' ? def.paths.list : def.paths.one;
    if (!template) throw new Error(`${def.name}.${op}: no path template for this operation`);
  }
  const templates = [
    def.paths.list,
    def.paths.one,
    ...Object.values<ActionDef>(def.actions ?? {}).map((a) => a.path),
  ].filter((t): t is string => t !== undefined);
  for (const template of templates) {
    const names = templateParams(template);
    if (def.parent === 'account' && !names.includes('uid'))
      throw new Error(`${def.name}: ${template} is of an account but has no {uid}`);
    if (def.parent && def.parent !== 'account' && !names.includes('sid'))
      throw new Error(`${def.name}: ${template} is under a server but has no {sid}`);
    if (def.within && def.parent !== 'account')
      throw new Error(`${def.name}: only a resource of an account names a holder (within)`);
    if (def.scope === 'panel' && (names.includes('uid') || names.includes('sid')))
      throw new Error(`${def.name}: ${template} is of the panel but names a user or a server`);
    if (!def.parent) continue;
    for (const name of names) {
      if (def.parent === 'app' && name === APP_PARAM) continue;
      if (!TENANT_PARAMS.includes(name) && !def.params?.[name])
        throw new Error(`${def.name}: ${template} declares no kind for {${name}}`);
    }
  }
  const routes = declaredRoutes(def);
  for (const route of routes) {
    const where = `${def.name}: ${route.method} ${route.template}`;
    if (def.scope === 'panel' && route.def.guard !== 'admin' && route.def.guard !== 'staff')
      throw new Error(`${where} is of the panel: its guard must be admin or staff`);
    if (def.parent === 'account' && route.def.guard !== 'self')
      throw new Error(`${where} is of an account: its guard must be self`);
  }
  for (const route of routes) {
    const shape = queryOf(route.def)?.shape ?? {};
    for (const param of Object.keys(route.def.loads ?? {}))
      if (!Object.hasOwn(shape, param))
        throw new Error(
          `${def.name}: ${route.method} ${route.template} loads ?${param}= but its query has no such field`,
        );
  }
  for (const route of routes) {
    const body = bodyOf(def, route.op, route.def);
    const shape = body instanceof z.ZodObject ? body.shape : {};
    for (const field of Object.keys(route.def.bodyLoads ?? {}))
      if (!Object.hasOwn(shape, field))
        throw new Error(
          `${def.name}: ${route.method} ${route.template} loads the body's ${field} but its body has no such field`,
        );
  }
  if (def.parent === 'app')
    for (const route of routes)
      if (!appIn(route.template, queryOf(route.def)))
        throw new Error(`${def.name}: ${route.template} names no app ({appId} or ?wsid=)`);
}
