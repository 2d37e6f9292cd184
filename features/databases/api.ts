/**
 * What databases offers other features, of the code every program loads (the panel, the agent and
 * the browser): they import it from here, never from its other files (serverApi.ts, agentApi.ts
 * and pagesApi.tsx hold what only one program loads; lint: stackdeck/feature-api).
 */
export {
  databaseInput,
  databaseName,
  databaseSchema,
  databases,
  dbPassword,
  dbUserInput,
  dbUserName,
  dbUserSchema,
  dbusers,
} from './resource';
export { DB_NAME, DB_USER, RESERVED_DATABASES, TEMP_USER_PREFIX, account, literal } from './sql';
