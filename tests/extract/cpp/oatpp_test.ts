import assert from "node:assert/strict";
import { cppExtractor } from "../../../src/extract/cpp/mod.ts";
import { summarize } from "../_fixtures.ts";

Deno.test("cppExtractor reads Oat++ ENDPOINT and ENDPOINT_ASYNC routes", async () => {
  const text = `#include OATPP_CODEGEN_BEGIN(ApiController)
class NoteController : public oatpp::web::server::api::ApiController {
public:
  ENDPOINT_INFO(getNote) { info->summary = "one note"; }
  ENDPOINT("GET", "notes/{noteId}", getNote, PATH(Int32, noteId)) {
    return createResponse(Status::CODE_200, "x");
  }
  ENDPOINT_ASYNC("POST", "/notes", CreateNote) {
    ENDPOINT_ASYNC_INIT(CreateNote)
  };
  ENDPOINT("GET", m_config->statusUrl, status) { return nullptr; }
  ENDPOINT("FETCH", "/odd", odd) { return nullptr; }
};
#include OATPP_CODEGEN_END(ApiController)
`;
  const { ports } = await cppExtractor.extract([{ path: "Notes.hpp", text }]);
  assert.deepEqual(summarize(ports), [
    "Notes.hpp:5 server GET /notes/{}",
    "Notes.hpp:8 server POST /notes",
  ]);
  assert.equal(ports[0]!.owner.name, "NoteController");
});
