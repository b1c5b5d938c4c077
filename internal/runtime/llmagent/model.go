package llmagent

import (
	"iter"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/retry"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// callModel runs the model callbacks around one model call (ADK's
// _call_llm_async): a before-model answer skips the model and is not counted
// against max_llm_calls; after-model callbacks may replace each response;
// on-model-error callbacks may answer instead of a failure. A call of the
// model is traced (ADK's call_llm span), and *callCtx is set to the context
// it runs in; skeleton is the step's event, whose id the answer takes.
func (a *Agent) callModel(ictx *runtime.InvocationContext, model models.Model, req *v1.LlmRequest, skeleton *v1.Event,
	callCtx **runtime.InvocationContext) iter.Seq2[*v1.LlmResponse, error] {
	return func(yield func(*v1.LlmResponse, error) bool) {
		cctx := &runtime.CallbackContext{InvocationContext: ictx, Actions: skeleton.Actions}
		plugins := ictx.App().Plugins
		if plugins.SeeModelRequests() || len(a.cfg.ModelCallbacks.Before) > 0 || len(a.cfg.ModelCallbacks.OnError) > 0 {
			detachContents(req)
		}
		resp, err := plugins.BeforeModel(cctx, req)
		if err == nil && resp == nil {
			for _, cb := range a.cfg.ModelCallbacks.Before {
				if resp, err = cb(cctx, req); err != nil || resp != nil {
					break
				}
			}
		}
		if err != nil || resp != nil {
			yield(resp, err)
			return
		}

		if req.Config.Labels == nil {
			req.Config.Labels = map[string]string{}
		}
		req.Config.Labels[agentNameLabel] = a.cfg.Name
		if err := ictx.IncrementLLMCalls(); err != nil {
			yield(nil, err)
			return
		}
		tctx, call := ictx.StartModelCall(req)
		defer call.End()
		*callCtx = call.AnswerContext(tctx)
		cctx.InvocationContext = tctx
		mctx := tctx.Context()
		if a.cfg.Retry != nil {
			mctx = retry.NewContext(mctx, *a.cfg.Retry)
		}
		for resp, err := range model.GenerateContent(mctx, req, ictx.RunConfig.Streaming) {
			if err == nil {
				// An answer too deep fails the call as a model error
				// does; the rest of the stream is dropped.
				err = runtime.CheckModelResponse(resp, ictx.MaxDepth())
			}
			failed := err != nil
			if err != nil {
				resp, err = a.onModelError(cctx, req, err)
				if err != nil {
					call.Fail(err)
					yield(nil, err)
					return
				}
			}
			call.Response(skeleton.Id, resp)
			resp, err = a.afterModel(cctx, resp)
			if err != nil {
				call.Fail(err)
			}
			if !yield(resp, err) || err != nil || failed {
				return
			}
		}
	}
}

func (a *Agent) onModelError(cctx *runtime.CallbackContext, req *v1.LlmRequest, cause error) (*v1.LlmResponse, error) {
	resp, err := cctx.App().Plugins.OnModelError(cctx, req, cause)
	if err != nil {
		return nil, err
	}
	for _, cb := range a.cfg.ModelCallbacks.OnError {
		if resp != nil {
			break
		}
		if resp, err = cb(cctx, req, cause); err != nil {
			return nil, err
		}
	}
	if resp == nil {
		return nil, cause
	}
	return resp, nil
}

func (a *Agent) afterModel(cctx *runtime.CallbackContext, resp *v1.LlmResponse) (*v1.LlmResponse, error) {
	out, err := cctx.App().Plugins.AfterModel(cctx, resp)
	if err != nil {
		return nil, err
	}
	for _, cb := range a.cfg.ModelCallbacks.After {
		if out != nil {
			break
		}
		if out, err = cb(cctx, resp); err != nil {
			return nil, err
		}
	}
	if out == nil {
		return resp, nil
	}
	return out, nil
}

// detachContents gives the request contents of its own, with engine-made
// call ids cleared, for callbacks that read or edit the request: the contents
// otherwise share the stored events and carry ids only models must drop,
// and their list shares its array with the history cache.
func detachContents(req *v1.LlmRequest) {
	list := make([]*v1.Content, len(req.Contents))
	for i, c := range req.Contents {
		c = proto.CloneOf(c)
		for _, p := range c.GetParts() {
			if fc := p.GetFunctionCall(); fc != nil {
				fc.Id = models.ModelID(fc.Id)
			}
			if fr := p.GetFunctionResponse(); fr != nil {
				fr.Id = models.ModelID(fr.Id)
			}
		}
		list[i] = c
	}
	req.Contents = list
}
