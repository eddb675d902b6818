/** How the services make the threads of their own pools: daemons, named after the pool. */
package io.dynarestore.core.threads;
