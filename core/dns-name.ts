/**
 * An RFC 1123 DNS subdomain, as Kubernetes requires of Node names and label-key prefixes:
 * dot-separated lowercase labels of letters, digits and inner hyphens, at most 253 characters.
 */
export const DNS_SUBDOMAIN_PATTERN = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';

export const DNS_SUBDOMAIN = new RegExp(`^${DNS_SUBDOMAIN_PATTERN}$`);

export const DNS_SUBDOMAIN_MAX = 253;

export function isDnsSubdomain(text: string): boolean {
  return text.length <= DNS_SUBDOMAIN_MAX && DNS_SUBDOMAIN.test(text);
}
