// Which PHP router reads which node of a file: each framework's reader is
// tried on the calls, classes and config arrays of the files that use it
// (by their imports, path or names), Laravel / Slim / clients last.
import type { Node } from "web-tree-sitter";
import { memberCall, scopedCall } from "./laravel.ts";
import { curlCall } from "./curl.ts";
import { codeIgniterCall, isCodeIgniterRoutes } from "./codeigniter.ts";
import { isLumenRoutes, lumenCall } from "./lumen.ts";
import { cakeCall, isCakeRoutes } from "./cakephp.ts";
import {
  isThinkController,
  isThinkRoutes,
  thinkCall,
  thinkController,
} from "./thinkphp.ts";
import { isYiiController, yiiController, yiiUrlManager } from "./yii.ts";
import { isMezzioApp, mezzioCall } from "./mezzio.ts";
import { isLaminasConfig, laminasRouter } from "./laminas.ts";
import { hyperfCall, hyperfController, isHyperf } from "./hyperf.ts";
import { isPhalcon, phalconCall, phalconController } from "./phalcon.ts";
import { isWordPress, wordPressCall } from "./wordpress.ts";
import { isMauticConfig, mauticRoutes } from "./mautic.ts";
import { isMagentoController, magentoController } from "./magento.ts";
import { symfonyController } from "./symfony.ts";
import type { PhpFile } from "./project.ts";

/** The visitor that hands each node of a file to the routers it uses. */
export function phpRouters(c: PhpFile): (node: Node) => void {
  const hyperf = isHyperf(c);
  const phalcon = isPhalcon(c);
  // each framework's call reader, tried in turn until one takes the call
  const scopedReaders = usedReaders([
    [isThinkRoutes(c), thinkCall],
    [hyperf, hyperfCall],
  ]);
  const memberReaders = usedReaders([
    [isCodeIgniterRoutes(c), codeIgniterCall],
    [isLumenRoutes(c), lumenCall],
    [isCakeRoutes(c), cakeCall],
    [isMezzioApp(c), mezzioCall],
    [phalcon, phalconCall],
  ]);
  const thinkControllers = isThinkController(c);
  const yiiControllers = isYiiController(c);
  const urlManager = c.file.text.includes("urlManager");
  const laminas = isLaminasConfig(c);
  const wordPress = isWordPress(c);
  const mautic = isMauticConfig(c);
  const magento = isMagentoController(c);
  return (node) => {
    switch (node.type) {
      case "scoped_call_expression":
        if (!scopedReaders.some((read) => read(c, node))) scopedCall(c, node);
        break;
      case "member_call_expression":
        if (!memberReaders.some((read) => read(c, node))) memberCall(c, node);
        break;
      case "function_call_expression":
        curlCall(c, node);
        if (wordPress) wordPressCall(c, node);
        break;
      case "class_declaration":
        if (c.symfony) symfonyController(c, node);
        else if (magento) magentoController(c, node);
        else if (hyperf) hyperfController(c, node);
        else if (phalcon) phalconController(c, node);
        else if (yiiControllers) yiiController(c, node);
        else if (thinkControllers) thinkController(c, node);
        break;
      case "array_element_initializer":
        if (urlManager) yiiUrlManager(c, node);
        if (laminas) laminasRouter(c, node);
        if (mautic) mauticRoutes(c, node);
        break;
    }
  };
}

/** A framework's reader of a call: whether the call was one of its routes. */
type CallReader = (c: PhpFile, call: Node) => boolean;

/** The readers of the frameworks a file uses (those paired with `true`). */
function usedReaders(
  readers: ReadonlyArray<[boolean, CallReader]>,
): CallReader[] {
  return readers.filter(([used]) => used).map(([, read]) => read);
}
