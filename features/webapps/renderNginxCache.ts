/**
 * The page cache of a PHP app's nginx file (fastcgi_cache): its http-level zone, the rules that
 * send what may not be cached to PHP, and the directives of the PHP location.
 */
import { cacheDir } from './appPaths';
import { type CacheSettings, regexLiteral } from './names';

const zoneOf = (name: string) => `stackdeck_${name.replace(/-/g, '_')}`;

/** The http-level line of an app's cache: its folder and zone. */
export function cacheZone(name: string): string {
  return `fastcgi_cache_path ${cacheDir(name)} levels=1:2 keys_zone=${zoneOf(name)}:10m max_size=1g inactive=60m use_temp_path=off;\n`;
}

/**
 * The cache rules of the PHP location: POSTs, query strings, the bypass paths and cookies go
 * to PHP; the answer says HIT, MISS or BYPASS in X-Stackdeck-Cache.
 */
export function cacheRules(name: string, cache: CacheSettings): string {
  const paths = cache.bypass_paths.map(regexLiteral).join('|');
  const cookies = cache.bypass_cookies.map(regexLiteral).join('|');
  return `    set $stackdeck_skip 0;
    if ($request_method !~ ^(GET|HEAD)$) { set $stackdeck_skip 1; }
    if ($query_string != "") { set $stackdeck_skip 1; }
${paths ? `    if ($request_uri ~* "^(${paths})") { set $stackdeck_skip 1; }\n` : ''}${
    cookies ? `    if ($http_cookie ~* "(${cookies})") { set $stackdeck_skip 1; }\n` : ''
  }`;
}

export function cacheDirectives(name: string, cache: CacheSettings): string {
  return `        fastcgi_cache ${zoneOf(name)};
        fastcgi_cache_key "$scheme$request_method$host$request_uri";
        fastcgi_cache_valid 200 301 302 ${cache.ttl_seconds}s;
        fastcgi_cache_bypass $stackdeck_skip;
        fastcgi_no_cache $stackdeck_skip;
        fastcgi_ignore_headers Cache-Control Expires Set-Cookie;
        add_header X-Stackdeck-Cache $upstream_cache_status always;
`;
}
