/** Messages of the protector's input topics it cannot act on: to the dead-letter topic, and reported, never dropped. */
package io.dynarestore.protector.rejections;
