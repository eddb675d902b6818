/**
 * Link events on restore.links: links issued, passcodes tried and accepted; a link's token and
 * passcode are never on the topic, only what checks them.
 */
package io.dynarestore.contracts.links;
